"""Hand analysis: how far a hand is from ready, its waits and discards, the expected score."""
