"""Looking back: match lists, player pages, head to head, the leaderboard. Read-only pages over
what the match loop keeps."""
