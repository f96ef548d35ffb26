#!/usr/bin/env python3
"""Writes other-words.txt: one character for every syllable of Mandarin (tones aside), each
with its pinyin. Heard in a loop beside the reading grammar they can say anything Mandarin
says, so speech that is not a reading is explained better by them than by the grammar
(OtherWordsCheck). Which character stands for a syllable does not matter to the recognizer,
only its sound: the first of GB 2312's 3755 common characters (level 1) read so in pinyin.txt,
or of the rest when level 1 has none. Syllables without a vowel (嗯 n, 呣 m) are left out:
they are interjections, said alone, and in the loop a single consonant anywhere.

Usage: make-other-words.py < pinyin.txt > other-words.txt
"""
import sys

first = {}
for line in sys.stdin:
    if line.startswith("#") or not line.strip():
        continue
    character, reading = line.split()
    syllable = reading.rstrip("12345")
    if not any(vowel in syllable for vowel in "aeiouvê"):
        continue
    code = character.encode("gb2312")
    if syllable not in first or code < first[syllable][0]:
        first[syllable] = (code, character)

print("# One character for every Mandarin syllable (tones aside), heard in a loop beside the")
print("# reading grammar (OtherWordsCheck); each line: the character, then its pinyin.")
print("# Made by make-other-words.py from pinyin.txt; do not edit.")
for syllable in sorted(first):
    print(f"{first[syllable][1]} {syllable}")
