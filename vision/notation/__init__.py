"""Reading and writing the records of a deal.

``json_format``: observations in and reports out (schema 1, one object or JSON Lines);
``pbn``: PBN 2.1 for bridge (read, write, and a reconstruction exported as a played deal);
``text``: the director's plain-text view of a report.
"""
