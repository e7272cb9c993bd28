/** One message passed from one thread to another through a plain int array. */
final class Mailbox {
    /** [0] the message, [1] 1 once it is there. Final, so the field is no suspect; its elements are. */
    static final int[] slots = new int[2];

    /** The writer's side: the message, then the mark that it is there. */
    static void send(int message) {
        slots[0] = message;
        slots[1] = 1;
    }

    /** The reader's side. The bug: plain element loads, so C2 may read the mark once, before the loop. */
    static int receive() {
        while (slots[1] == 0) {
        }
        return slots[0];
    }
}
