"""NFC stickers away from the board: the record a sticker carries to name its card (record.py), and a
USB or serial reader at the desk driven with nfcpy (reader.py)."""
