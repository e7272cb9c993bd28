package dev.vbd.litmus.speculation;

import dev.vbd.litmus.speculation.OwnershipTransition.Protocol;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

class OwnershipTransitionTest {

    @Test
    void theOwnersStoreStaysOrderedAcrossTheTransition() throws InterruptedException {
        OwnershipTransition test = new OwnershipTransition(Protocol.STORE_THEN_CHECK);
        long[] outcomes = test.run(5_000, test.transitionNanos(), false);
        assertEquals(0, outcomes[0], "forbidden outcomes");
        assertEquals(5_000, test.transitions, "every round switches its mode once");
    }

    /**
     * The shape's power: a transition that stops no thread lets the owner's buffered store escape it.
     * It shows in tens to hundreds of rounds per million, but now and then the two actors settle into
     * a rhythm in which they never meet for a whole attempt of 20 million rounds; each attempt starts
     * actor B afresh, on whatever CPU the scheduler gives it.
     */
    @Test
    void aTransitionThatStopsNoThreadIsCaught() throws InterruptedException {
        StringBuilder attempts = new StringBuilder();
        for (int attempt = 1; attempt <= 3; attempt++) {
            OwnershipTransition test = new OwnershipTransition(Protocol.NO_HANDSHAKE);
            long maxDelayNanos = test.transitionNanos();
            long[] outcomes = test.run(20_000_000, maxDelayNanos, true);
            if (outcomes[0] > 0) return;
            attempts.append(String.format("%n  attempt %d: no forbidden outcome in %d rounds, the owner's store delayed up to %d ns;"
                    + " outcomes 01/10/11: %d/%d/%d", attempt, outcomes[1] + outcomes[2] + outcomes[3], maxDelayNanos,
                    outcomes[1], outcomes[2], outcomes[3]));
        }
        fail("the negative control never showed its forbidden outcome:" + attempts);
    }
}
