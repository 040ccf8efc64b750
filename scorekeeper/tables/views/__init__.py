"""The table's views: matches and their scoreboards, entries, history, exports."""
