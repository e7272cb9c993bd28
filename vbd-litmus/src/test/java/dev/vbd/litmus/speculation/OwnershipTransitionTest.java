package dev.vbd.litmus.speculation;

import dev.vbd.litmus.speculation.OwnershipTransition.Protocol;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OwnershipTransitionTest {

    @Test
    void theOwnersStoreStaysOrderedAcrossTheTransition() throws InterruptedException {
        OwnershipTransition test = new OwnershipTransition(Protocol.STORE_THEN_CHECK);
        long[] outcomes = test.run(5_000, test.transitionNanos(), false);
        assertEquals(0, outcomes[0], "forbidden outcomes");
        assertEquals(5_000, test.transitions, "every round switches its mode once");
    }

    /** The shape's power: a transition that stops no thread lets the owner's buffered store escape it. */
    @Test
    void aTransitionThatStopsNoThreadIsCaught() throws InterruptedException {
        OwnershipTransition test = new OwnershipTransition(Protocol.NO_HANDSHAKE);
        long maxDelayNanos = test.transitionNanos();
        long[] outcomes = test.run(20_000_000, maxDelayNanos, true);
        long rounds = outcomes[0] + outcomes[1] + outcomes[2] + outcomes[3];
        assertTrue(outcomes[0] > 0, "no forbidden outcome in " + rounds + " rounds, the owner's store delayed up to "
                + maxDelayNanos + " ns; outcomes 01/10/11: " + outcomes[1] + "/" + outcomes[2] + "/" + outcomes[3]);
    }
}
