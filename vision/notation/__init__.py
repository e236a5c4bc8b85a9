"""Reading and writing observations and reports: JSON (``json_format``) and PBN (``pbn``)."""
