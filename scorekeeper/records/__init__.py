"""A player's record and who owns it: claimed by an account through a link or a code an
organizer hands over, seen across every club in one place, merged with another record of the
same person, shown as initials, anonymised on request, and downloaded by its owner."""
