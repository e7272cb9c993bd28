/**
 * Mutual exclusion, Dekker style, as a try-lock: a thread raises its flag, and enters only if
 * the other thread's flag is down. Under SC at most one of two threads that raise their flags
 * at once can see the other's down; x86 store buffering lets both see it down.
 */
final class Door {
    /** The bug: neither flag is volatile, so a thread's raise may reach memory after it read the other flag. */
    boolean wantsA;
    boolean wantsB;

    boolean visitA(Room room) {
        wantsA = true;
        boolean entered = !wantsB;
        if (entered) room.use();
        wantsA = false;
        return entered;
    }

    boolean visitB(Room room) {
        wantsB = true;
        boolean entered = !wantsA;
        if (entered) room.use();
        wantsB = false;
        return entered;
    }
}
