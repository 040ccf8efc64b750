"""The pages of a match at the table: starting one, its scoreboard, entries, history, exports,
the "settle it" calculator. Above access (who may change a match, the helpers that lock it)
and tables (the match, its entries and board), which import nothing of them."""
