package dev.vbd.agent;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoaderBytesSourceTest {
    private static final List<String> NAMES = List.of("p/Both", "p/InParent", "p/InChild", "p/Nowhere", "p/package-info");

    @TempDir
    Path dir;
    private CountingLoader parent;
    private LoaderBytesSource parentSource;

    /** A loader with the class path's lookup that counts the lookups of its own entries. */
    static final class CountingLoader extends URLClassLoader {
        final Map<String, AtomicInteger> lookups = new ConcurrentHashMap<>();

        CountingLoader(URL url) {
            super(new URL[] {url}, null);
        }

        @Override
        public URL findResource(String name) {
            lookups.computeIfAbsent(name, n -> new AtomicInteger()).incrementAndGet();
            return super.findResource(name);
        }

        int lookups(String name) {
            AtomicInteger n = lookups.get(name);
            return n == null ? 0 : n.get();
        }
    }

    /** A loader that looks in its own entries before its parent's. */
    static final class ChildFirstLoader extends URLClassLoader {
        ChildFirstLoader(URL url, ClassLoader parent) {
            super(new URL[] {url}, parent);
        }

        @Override
        public URL getResource(String name) {
            URL own = findResource(name);
            return own != null ? own : super.getResource(name);
        }
    }

    /** A loader that is no {@link URLClassLoader}, with one class of its own, held in memory. */
    static final class InMemoryLoader extends ClassLoader {
        private final URL own;

        InMemoryLoader(ClassLoader parent, URL own) {
            super(parent);
            this.own = own;
        }

        @Override
        protected URL findResource(String name) {
            return name.equals("p/InChild.class") ? own : null;
        }
    }

    @BeforeEach
    void classPaths() throws IOException {
        write("parent/p/Both.class", "parent's Both");
        write("parent/p/InParent.class", "parent's InParent");
        write("child/p/Both.class", "child's Both");
        write("child/p/InChild.class", "child's InChild");
        parent = new CountingLoader(url("parent"));
        parentSource = new LoaderBytesSource(parent, true);
    }

    @Test
    void aLoaderThatAsksItsParentFirstGetsWhatItsOwnLookupGives() throws IOException {
        URLClassLoader child = new URLClassLoader(new URL[] {url("child")}, parent);
        LoaderBytesSource source = new LoaderBytesSource(child, true, parentSource);
        for (int round = 0; round < 2; round++) {
            for (String name : NAMES) assertSame(child, name, source.find(name));
        }
        assertEquals("parent's Both", text(source.find("p/Both")), "the parent's class first, as getResource has it");
        assertEquals("child's InChild", text(source.find("p/InChild")));
    }

    @Test
    void aNameTheParentLacksIsLookedForInTheParentOnceForAllItsChildren() throws IOException {
        for (int i = 0; i < 5; i++) {
            // a script engine's pattern: a fresh loader for each compiled script, each with a fresh source
            URLClassLoader child = new URLClassLoader(new URL[0], parent);
            LoaderBytesSource source = new LoaderBytesSource(child, true, parentSource);
            assertNull(source.find("p/package-info"));
            assertNull(source.find("p/Nowhere"));
            assertEquals("parent's InParent", text(source.find("p/InParent")));
        }
        assertEquals(1, parent.lookups("p/package-info.class"));
        assertEquals(1, parent.lookups("p/Nowhere.class"));
    }

    @Test
    void aLoaderWithoutTheClassPathsLookupIsAskedAsItAnswers() throws IOException {
        InMemoryLoader child = new InMemoryLoader(parent, dir.resolve("child/p/InChild.class").toUri().toURL());
        assertTrue(LoaderBytesSource.asksParentFirst(child));
        LoaderBytesSource source = new LoaderBytesSource(child, true, parentSource);
        for (String name : NAMES) assertSame(child, name, source.find(name));
    }

    @Test
    void whichLoadersAskTheirParentFirst() throws IOException {
        assertTrue(LoaderBytesSource.asksParentFirst(new URLClassLoader(new URL[0], parent)));
        assertFalse(LoaderBytesSource.asksParentFirst(new ChildFirstLoader(url("child"), parent)), "overrides getResource");
        assertFalse(LoaderBytesSource.asksParentFirst(parent), "its parent is the boot loader, which has no source");
        assertFalse(LoaderBytesSource.asksParentFirst(ClassLoader.getSystemClassLoader()), "the JDK's loaders are read directly");
        assertFalse(LoaderBytesSource.asksParentFirst(null));
    }

    @Test
    void aLoaderThatLooksInItselfFirstIsAskedDirectly() throws IOException {
        ChildFirstLoader child = new ChildFirstLoader(url("child"), parent);
        LoaderBytesSource source = new LoaderBytesSource(child, true);
        for (String name : NAMES) assertSame(child, name, source.find(name));
        assertEquals("child's Both", text(source.find("p/Both")));
    }

    private static void assertSame(ClassLoader loader, String name, byte[] found) throws IOException {
        try (InputStream in = loader.getResourceAsStream(name + ".class")) {
            if (in == null) {
                assertNull(found, name);
            } else {
                assertArrayEquals(in.readAllBytes(), found, name);
            }
        }
    }

    private void write(String path, String content) throws IOException {
        Path p = dir.resolve(path);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content);
    }

    private URL url(String sub) throws MalformedURLException {
        return dir.resolve(sub).toUri().toURL();
    }

    private static String text(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
