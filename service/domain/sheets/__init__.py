"""Score sheets: claimed hands scored from their patterns, and a session settled by player."""
