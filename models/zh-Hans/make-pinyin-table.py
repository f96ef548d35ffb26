#!/usr/bin/env python3
"""Writes pinyin.txt: the usual Mandarin reading of each character in GB 2312 (the 6763
characters of everyday Simplified Chinese), with tone numbers, from the Unicode Han database.

Usage: make-pinyin-table.py UNIHAN_DIR > pinyin.txt
UNIHAN_DIR holds Unihan_Readings.txt.bz2 and Unihan_OtherMappings.txt.bz2, as Debian's
unicode-data package installs them in /usr/share/unicode (`apt-get download unicode-data`,
then `dpkg-deb -x`). Run once by a developer; CareVoice reads only the result.

The reading is kMandarin (the customary one). Characters read differently in some words
(血 xue4 in 血糖 but xie3 alone in speech, 觉 jiao4 in 睡觉) are handled by pinyin-words.txt.
"""
import bz2
import sys
import unicodedata

TONES = {"\u0304": "1", "\u0301": "2", "\u030c": "3", "\u0300": "4"}


def numbered(syllable):
    """xuè -> xue4, lǜ -> lv4, de -> de5 (neutral tone)."""
    tone = "5"
    letters = ""
    for c in unicodedata.normalize("NFD", syllable):
        if c in TONES:
            tone = TONES[c]
        elif c == "\u0308":      # the diaeresis of ü
            letters = letters[:-1] + "v"
        else:
            letters += c
    return letters + tone


def fields(path, field):
    with bz2.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 3 and parts[1] == field:
                yield chr(int(parts[0][2:], 16)), parts[2]


def main(directory):
    common = {c for c, _ in fields(f"{directory}/Unihan_OtherMappings.txt.bz2", "kGB0")}
    print("# The usual Mandarin reading of each character of GB 2312, tone-numbered (5: neutral).")
    print("# Made by make-pinyin-table.py from the Unicode Han database (kMandarin); do not edit:")
    print("# words read otherwise go in pinyin-words.txt.")
    for c, reading in sorted(fields(f"{directory}/Unihan_Readings.txt.bz2", "kMandarin")):
        if c in common:
            print(f"{c} {numbered(reading.split()[0])}")


if __name__ == "__main__":
    main(sys.argv[1])
