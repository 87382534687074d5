"""What every room's views share: typed requests and htmx answers (htmx), creating forms answered
once (once), the board's poll (watch), the middleware, walking a history a chunk at a time
(chunks). It imports the models and the scope only."""
