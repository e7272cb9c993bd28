package java.util.concurrent.atomic;

import java.lang.reflect.Modifier;
import java.util.function.Function;

/**
 * The modifiers a field was declared with, before vbd changed them. The JVM keeps seeing the
 * rewritten flags (they are what makes each access sequentially consistent); the JDK methods
 * that report a field's modifiers to a program ({@code Field.getModifiers()}, and the finality
 * {@code MemberName} reports to access checks and {@code VarHandle} creation) are patched in the
 * prepared JDK to ask here, so that reflection, field updaters, setters of final fields and the
 * default {@code serialVersionUID} behave as on stock Java.
 *
 * <p>What vbd changed in a class comes from a hook the agent installs at start-up: for each
 * class, the names of the fields vbd made volatile ({@code flipped}) and, among them, those that
 * lost {@code final} ({@code unfinal}). Until the hook is installed (while the JDK boots) the
 * JVM's flags are the answer. Answers are cached per class in this {@link ClassValue}, whose
 * values hold field names only, never a class or its loader.
 */
public final class VbdFieldModifiers extends ClassValue<String[][]> {
    /** {@code MethodHandleNatives.Constants.MN_IS_FIELD}, the same on every JDK from 17 on. */
    private static final int MN_IS_FIELD = 0x00040000;
    private static final String[][] NONE = {{}, {}};

    private static volatile VbdFieldModifiers installed;

    private final Function<Class<?>, String[][]> hook;

    private VbdFieldModifiers(Function<Class<?>, String[][]> hook) {
        this.hook = hook;
    }

    /**
     * Installs the hook that tells, for a class, {@code {flipped, unfinal}} field names, or null
     * when vbd changed none of its fields. The first caller wins, so a program cannot replace
     * the agent's answer; returns whether this call installed it.
     */
    public static synchronized boolean install(Function<Class<?>, String[][]> hook) {
        if (installed != null || hook == null) return false;
        installed = new VbdFieldModifiers(hook);
        return true;
    }

    /** The declared modifiers of field {@code name} of {@code declaring}, given the JVM's. */
    public static int field(int modifiers, Class<?> declaring, String name) {
        // vbd only ever adds volatile or takes final away: a final field is as declared
        if ((modifiers & Modifier.FINAL) != 0) return modifiers;
        String[][] changed = changed(declaring, name);
        if (changed != null && contains(changed[0], name)) {
            // with fenced fields the JVM sees the field as declared, except for final
            modifiers &= ~Modifier.VOLATILE;
            if (contains(changed[1], name)) modifiers |= Modifier.FINAL;
        }
        return modifiers;
    }

    /**
     * {@code MemberName}'s flags with volatile added to a field vbd makes sequentially consistent
     * while the JVM sees it plain (fenced fields): {@code DirectMethodHandle} then gives its
     * getters and setters, and the reflection built on them, the field's volatile access.
     */
    public static int access(int flags, Class<?> declaring, String name) {
        if ((flags & MN_IS_FIELD) == 0 || (flags & (Modifier.VOLATILE | Modifier.FINAL)) != 0) return flags;
        String[][] changed = changed(declaring, name);
        return changed != null && contains(changed[0], name) ? flags | Modifier.VOLATILE : flags;
    }

    /** {@code {flipped, unfinal}} of the class, or null when the hook cannot answer now. */
    private static String[][] changed(Class<?> declaring, String name) {
        VbdFieldModifiers cache = installed;
        if (cache == null || declaring == null || name == null) return null;
        try {
            return cache.get(declaring);
        } catch (RuntimeException e) {
            // the hook could not answer now (it declines to answer a nested question while it reads a class):
            // the JVM's flags, and nothing cached
            return null;
        }
    }

    /** {@code MemberName}'s flags with a field's declared modifiers; a method's or constructor's unchanged. */
    public static int member(int flags, Class<?> declaring, String name) {
        return (flags & MN_IS_FIELD) == 0 ? flags : field(flags, declaring, name);
    }

    @Override
    protected String[][] computeValue(Class<?> type) {
        String[][] changed = hook.apply(type);
        return changed == null || changed.length < 2 || changed[0] == null || changed[1] == null ? NONE : changed;
    }

    private static boolean contains(String[] names, String name) {
        for (String n : names) {
            if (n.equals(name)) return true;
        }
        return false;
    }
}
