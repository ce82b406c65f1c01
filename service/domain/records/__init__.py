"""Hands as played: a hand record checked against the rules of play and its end worked out."""
