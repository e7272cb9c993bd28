package dev.vbd.core;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What one class's rewrite learned about other classes. The rewrite is a function of the class's
 * own bytes, the policy, and these answers; so a rewrite stored earlier may stand in for a new one
 * exactly when every question it asked still gets the same answer.
 *
 * <p>Answers are noted where they are asked, after any cache has answered, so that an answer one
 * rewrite computed and another reused is noted by both.
 */
public final class Consulted {
    public enum Question {
        /** Does the class's package carry {@code @Relaxed}? Subject: a class of the package. */
        PACKAGE_RELAXED,
        /** Can no constructor of the class leak {@code this}? Subject: the class. */
        LEAK_FREE,
        /** Did vbd make the field volatile? Subject: {@link #field}. */
        MADE_VOLATILE,
        /** Does an access to the field need the fences of a volatile access? Subject: {@link #field}. */
        FENCED,
        /** Is the field declared by a program class, whose every access carries the speculation check? Subject: {@link #field}. */
        DECLARED_BY_PROGRAM
    }

    /** A record, but never compared or hashed: records do that through invokedynamic, which the cold path avoids. */
    public record Answer(Question question, String subject, boolean value) {}

    /** A rewrite may, through its class loader, define and so rewrite another class on the same thread. */
    private static final ThreadLocal<Consulted> CURRENT = new ThreadLocal<>();

    private final List<Answer> answers = new ArrayList<>();
    private final Set<String> asked = new HashSet<>();
    private final Consulted outer;

    private Consulted(Consulted outer) {
        this.outer = outer;
    }

    /** Starts noting the answers of a rewrite on this thread; {@link #end} it in a finally block. */
    public static Consulted begin() {
        Consulted c = new Consulted(CURRENT.get());
        CURRENT.set(c);
        return c;
    }

    public void end() {
        if (outer == null) CURRENT.remove();
        else CURRENT.set(outer);
    }

    /** Notes an answer for the rewrite running on this thread, if any. */
    public static void note(Question question, String subject, boolean value) {
        Consulted c = CURRENT.get();
        if (c != null && c.asked.add(question.ordinal() + (value ? "+" : "-") + subject)) c.answers.add(new Answer(question, subject, value));
    }

    public List<Answer> answers() {
        return Collections.unmodifiableList(answers);
    }

    /** The subject of a {@link Question#MADE_VOLATILE} or {@link Question#FENCED} answer: no class or field name holds a ';' before the descriptor. */
    public static String field(String owner, String name, String descriptor) {
        return owner + ';' + name + ';' + descriptor;
    }
}
