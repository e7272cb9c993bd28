package dev.vbd.core.verify;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A heap access that is neither sequentially consistent nor in a relaxed scope.
 * {@code method} is name plus descriptor; {@code offset} the bytecode offset in that method.
 */
public record Finding(String className, String loader, String method, int offset, Kind kind, String detail) {
    public enum Kind {
        /** An {@code xaload} not followed by the acquire fence. */
        ARRAY_LOAD,
        /** An {@code xastore} into a possibly shared array without the release fence before and the full fence after. */
        ARRAY_STORE,
        /** A bulk operation without a full fence on both sides. */
        BULK,
        /** A call to a weak access mode (plain, opaque, acquire, release) left as it is, or a fenced one without its fences. */
        WEAK_MODE,
        /** Under speculative fields, a call that may reach {@code Object.clone} without the check of its receiver. */
        CLONE,
        /** A field access resolving to a field that is neither volatile nor final, and not relaxed. */
        FIELD,
        /** vbd's plain-field link outside a relaxed method. */
        PLAIN_FIELD,
        /**
         * Under safe construction: a point at which a constructor's object may become visible to
         * another thread after a store of the constructor, without a release fence right before it.
         */
        CONSTRUCTOR,
        /** Code the verifier could not decode: nothing about it is known, so it counts against SC. */
        UNVERIFIABLE,
        /**
         * A method handle or reflective call the program made, at run time, to an operation vbd cannot
         * fence on that path (recorded by the prepared JDK as it links the call).
         */
        INDIRECT
    }

    /** {@code class.method(desc) @offset: KIND detail}, as the CLI prints it. */
    public String describe() {
        return className.replace('/', '.') + "." + method + " @" + offset + ": " + kind + " " + detail;
    }

    public Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("class", className.replace('/', '.'));
        m.put("loader", loader);
        m.put("method", method);
        m.put("offset", offset);
        m.put("kind", kind.name());
        m.put("detail", detail);
        return m;
    }
}
