"""Table geometry, seat assignment and rows: from card detections to per-seat rows."""
