"""A league night's draw and its rotating partners, worked out without Django."""
