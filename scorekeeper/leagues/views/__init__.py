"""The leagues' pages, by family: leagues and seasons, the wall board, exports, the bundle
import, and players."""
