#!/usr/bin/env python3
"""A synthetic vocabulary the size of AGROVOC, as SKOS Turtle on standard output.

    bench/generate-vocabulary.py [CONCEPTS] [LANGUAGES] > vocabulary.ttl

Defaults: 40,000 concepts in 20 languages, about 760,000 labels (a Preferred label in English
and in three quarters of the other languages, Alternative labels for a fifth, Hidden ones for a few), a definition each, a broader
hierarchy five levels deep, and an exact match for a third of them. Seeded: the same arguments
give the same document.
"""
import random
import sys

LANGS = ["en", "fr", "es", "de", "it", "pt", "ru", "ar", "zh", "ja", "hi", "tr", "pl", "nl", "sv", "fi", "el", "cs", "hu", "ko",
         "th", "vi", "fa", "uk", "ro"]
SYLLABLES = ["ba", "bel", "ca", "dor", "el", "fa", "gri", "ha", "is", "ka", "lo", "ma", "ne", "or", "pa", "qui", "ra", "sa",
             "ti", "ur", "va", "xe", "yo", "za", "ñu", "é", "ü", "ø", "ł", "ß"]


def word(rng, n):
    return "".join(rng.choice(SYLLABLES) for _ in range(n)).capitalize()


def esc(text):
    return text.replace("\\", "\\\\").replace('"', '\\"')


def main():
    concepts = int(sys.argv[1]) if len(sys.argv) > 1 else 40000
    languages = LANGS[: int(sys.argv[2]) if len(sys.argv) > 2 else 20]
    rng = random.Random(20261122)
    out = sys.stdout
    out.write("@prefix skos: <http://www.w3.org/2004/02/skos/core#> .\n@prefix c: <https://vocab.example.org/agro/c_> .\n\n")
    labels = 0
    for i in range(concepts):
        parts = [f"c:{i} a skos:Concept"]
        base = word(rng, 3)
        for lang in languages:
            # AGROVOC's shape: most concepts are labelled in most languages, a few have synonyms.
            if lang == "en" or rng.random() < 0.75:
                parts.append(f'skos:prefLabel "{esc(base)} {lang} {i}"@{lang}')
                labels += 1
            if rng.random() < 0.18:
                parts.append(f'skos:altLabel "{esc(word(rng, 2))} {lang} {i}"@{lang}')
                labels += 1
            if rng.random() < 0.02:
                parts.append(f'skos:hiddenLabel "{esc(base.lower())}-{lang} {i}"@{lang}')
                labels += 1
        parts.append(f'skos:definition "The {esc(base)} of the synthetic agricultural vocabulary, number {i}."@en')
        if i > 0:
            # Five levels: every concept below the first 5 has a broader one among the earlier ones.
            parts.append(f"skos:broader c:{(i - 1) // 8}")
        if i % 3 == 0:
            parts.append(f"skos:exactMatch <https://www.wikidata.org/wiki/Q{1000 + i}>")
        out.write(" ;\n    ".join(parts) + " .\n")
    sys.stderr.write(f"{concepts} concepts, {labels} labels in {len(languages)} languages\n")


if __name__ == "__main__":
    main()
