"""Analysis on top of solutions: certificates and conjectures, chance games,
the value of knowing p, series at points, and two-parameter phase diagrams.
"""
