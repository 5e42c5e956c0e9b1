import FeedDiff

// The diff library on its own: its default settings.
print(DiffSettings())
