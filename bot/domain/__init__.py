"""Helpers over the rules and the records: positions, actions, fair dice, deadline arithmetic, the log step by
step, translations, names, ratings, statistics."""
