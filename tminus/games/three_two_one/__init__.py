"""3-2-1 Countdown: the hidden-hand card game of getting your hand total to five or less."""
