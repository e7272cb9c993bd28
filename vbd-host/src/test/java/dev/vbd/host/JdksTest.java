package dev.vbd.host;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JdksTest {
    private static final Path HOME = Path.of(System.getProperty("java.home"));

    @Test
    void featureReleasesOfVersionStrings() {
        assertEquals(17, Jdks.feature("17.0.15"));
        assertEquals(25, Jdks.feature("25"));
        assertEquals(8, Jdks.feature("1.8.0_392"));
        assertEquals(21, Jdks.feature("21-ea"));
        assertEquals(0, Jdks.feature("unknown"));
    }

    @Test
    void theRunningJdkIsFoundByItsHomeAndByItsLauncher() throws Exception {
        Jdks.Jdk byHome = Jdks.at(HOME);
        assertNotNull(byHome);
        assertEquals(Runtime.version().feature(), byHome.feature());
        assertEquals(byHome, Jdks.at(HOME.resolve("bin").resolve("java")));
        assertEquals(System.getProperty("java.version"), Jdks.properties(byHome.java().toString()).get("java.version"));
        assertNull(Jdks.at(HOME.resolve("no-such-dir")));
    }

    @Test
    void namedJdksAreListedOnceEachOldestFirst() {
        String named = HOME + File.pathSeparator + HOME.resolve("bin/java") + File.pathSeparator + "/no/such/jdk";
        List<Jdks.Jdk> found = Jdks.find(named);
        assertEquals(1, found.size(), found::toString);
        assertEquals(Jdks.at(HOME), found.get(0));
    }

    @Test
    void withoutNamedJdksTheRunningOneIsAmongThoseFound() {
        List<Jdks.Jdk> found = Jdks.find(null);
        assertTrue(found.contains(Jdks.at(HOME)), found::toString);
        found.forEach(j -> assertTrue(j.feature() >= Jdks.MIN_FEATURE, j::toString));
    }
}
