#!/usr/bin/env python3
"""Regenerate the editable source folders of the shipped word packs.

Usage:
    python3 Packs/tools/make-sources.py           # rewrite Packs/<pack>/ and Packs/Catalog.plist
    python3 Packs/tools/make-sources.py --check   # only validate what is committed; writes nothing

Inputs (Debian packages; read only by this script, never by the build):
    scowl     /usr/share/dict/scowl/english-*.NN, american-*.NN  (SCOWL, Kevin Atkinson)
    wamerican /usr/share/dict/american-english   (cross-check: every English word shipped must be
                                                  in the US dictionary built from SCOWL size 50)
    wspanish  /usr/share/dict/spanish            (Spanish words, public domain)
    wngerman, wfrench, wbrazilian  /usr/share/dict/{ngerman,french,brazilian}  (GPL word lists:
                                   every word of base-german/-french/-portuguese is in one)
    dict-freedict-eng-{deu,fra,por}  /usr/share/dictd/freedict-eng-*.{index,dict.dz}  (which
                                   of those words are common: see "Packs 5-7")
    wordnet-base  /usr/share/wordnet/  (WordNet 3.0: the clues of base-english)
Install them with `apt-get install` and DEBIAN_PACKAGES below.

The output is committed: `Packs/<pack>/Info.plist`, the word lists under each pack folder and
`Packs/Catalog.plist`. `make packs` (hangman pack build) reads only those committed files, so a
build never needs the word-list packages. Run this script only to change the content, then
review the diff (`git diff --stat Packs/`) and bump `ContentVersion` of every pack that changed.

The selection is deterministic: fixed inputs, sorted iteration, a seeded hash order where a
pseudo-random pick is needed (SEED and stable_order below) and plistlib's XML writer with
sorted keys. Running it twice on the same Debian packages gives byte-identical files.

Content rules applied to every word (the same rules `hangman pack verify` enforces, plus house
rules): NFC, lowercase, 2-40 letters, letters plus single inner spaces/hyphens/apostrophes only,
no duplicates within a pack (compared case-insensitively and, for Spanish, also ignoring accents
but not n/ñ), English words at least 4 letters, no proper nouns, no abbreviations, no
possessives, nothing offensive (see BLOCK_* below: slurs, profanity, sexual terms, drugs and
intoxication, and a few grim terms that do not belong in a family game).
"""

from __future__ import annotations

import argparse
import collections
import copy
import gzip
import hashlib
import plistlib
import re
import sys
import unicodedata
from pathlib import Path

PACKS = Path(__file__).resolve().parent.parent          # .../Packs
DEBIAN_PACKAGES = ("scowl wamerican wspanish wngerman wfrench wbrazilian wordnet-base "
                   "dict-freedict-eng-deu dict-freedict-eng-fra dict-freedict-eng-por")
SCOWL = Path("/usr/share/dict/scowl")
WAMERICAN = Path("/usr/share/dict/american-english")
SPANISH = Path("/usr/share/dict/spanish")
SEED = 20240601

# --------------------------------------------------------------------------------------------
# Licenses and attributions recorded in each manifest (from /usr/share/doc/*/copyright)
# --------------------------------------------------------------------------------------------

SCOWL_LICENSE = (
    "Word list derived from SCOWL (Spell Checker Oriented Word Lists). "
    "Copyright 2000-2011 by Kevin Atkinson. "
    "Permission to use, copy, modify, distribute and sell these word lists, the associated "
    "scripts, the output created from the scripts, and its documentation for any purpose is "
    "hereby granted without fee, provided that the above copyright notice appears in all copies "
    "and that both that copyright notice and this permission notice appear in supporting "
    "documentation. Kevin Atkinson makes no representations about the suitability of this array "
    "for any purpose. It is provided \"as is\" without express or implied warranty. "
    "The SCOWL sizes used here (10-50) draw on public-domain sources (Moby Words II by Grady "
    "Ward, Brian Kelk's UK English Wordlist, Alan Beale's 12Dicts), inflections made with "
    "WordNet 1.6 "
    "(Copyright 1997 by Princeton University, all rights reserved) and American spellings made "
    "with VARCON from Ispell word lists (Copyright 1993, Geoff Kuenning, Granada Hills, CA, all "
    "rights reserved). Full notices: SCOWL's copyright file (Debian: "
    "/usr/share/doc/scowl/copyright), kept with the pack sources as Packs/licenses/SCOWL.txt."
)
SCOWL_ATTRIBUTION = (
    "Words selected from SCOWL {levels} by Kevin Atkinson (http://wordlist.sourceforge.net/), "
    "as packaged by Debian (scowl 2020.12.07). Selection and filtering by Hangman Packs."
)
WSPANISH_LICENSE = (
    "Public domain. Words selected from the Debian wspanish word list "
    "(/usr/share/dict/spanish), whose copyright file states: \"Word list license: Public Domain.\""
)
WSPANISH_ATTRIBUTION = (
    "Words from the wspanish list for /usr/share/dict, packaged for Debian by Enrique Zanardi "
    "and maintained by Agustin Martin Domingo (wspanish 1.0.30). Selection and filtering by "
    "Hangman Packs."
)
IOS_LICENSE = ("Original content: words and clues written for Hangman Packs, "
               "no third-party word list used.")
IOS_ATTRIBUTION = (
    "Words and clues written by the Hangman Packs team. Apple, Xcode, Swift, SwiftUI, UIKit, "
    "iPhone, iPad and other product names are trademarks of Apple Inc.; this pack is not "
    "affiliated with or endorsed by Apple."
)

# --------------------------------------------------------------------------------------------
# Offensive-word filter.  Two kinds of entry, matched on the lowercase NFC word (Spanish also
# on its accent-folded form):
#   *_BLOCK_WORDS     exact words; English entries also block their regular inflections
#                     (see _inflections)
#   *_BLOCK_PATTERNS  regular expressions searched in the word: roots that are offensive
#                     wherever they occur, unanchored only where that was checked against all
#                     of SCOWL 10-70 and wspanish (so "basement", "therapist", "computadora"
#                     or "pájaro" are not hit); everything else is anchored with ^ or $.
# The lists are deliberately broad for a family game: it is fine to lose a harmless word.
# --------------------------------------------------------------------------------------------

EN_BLOCK_PATTERNS = [
    # profanity
    r"fuck", r"shit", r"cunt", r"^cum(s|med|ming|shot)?$", r"bitch", r"bastard", r"bollock",
    r"^wank", r"^twat",
    r"asshole", r"arsehole", r"dickhead", r"bullshit", r"goddam", r"^damn", r"^piss",
    r"^crap", r"^bugger", r"^bloody", r"^douche", r"^scumbag", r"^jackass", r"dumbass",
    r"^badass", r"^tosser", r"^bellend", r"^pillock", r"^hell$", r"^hells$", r"^hellish",
    r"^hellhole", r"^hellfire",
    # slurs (racial, ethnic, religious, homophobic, ableist)
    r"nigg", r"^negr", r"faggot", r"^fagot", r"^dyke", r"^lesbo", r"^homo$", r"^homos$",
    r"^queer", r"^tranny", r"^shemale", r"^poof", r"^wetback", r"^beaner", r"^chink",
    r"^gook", r"^kike", r"^dago", r"^kraut", r"^raghead", r"^towelhead", r"^redskin",
    r"^squaw", r"^injun", r"halfbreed", r"^mulatto", r"^gyp(s|ped|ping|per|pers)?$", r"^gypsy",
    r"^gypsies",
    r"^honk(y|ie|ey)", r"^whitey", r"^redneck", r"^retard", r"^spastic", r"^spaz",
    r"^cretin", r"^moron", r"^imbecil", r"^idiot", r"^midget", r"^cripple", r"^mongol",
    r"^coolie", r"^sambo", r"^pickaninn", r"^golliwog", r"^wog$", r"^wogs$", r"^jigaboo",
    r"^spick?s?$", r"^coons?$", r"^darkie", r"^darky", r"^paki", r"^jap$", r"^japs$",
    r"^yids?$", r"^hymie", r"^heebs?$", r"^gringo", r"^oriental", r"^pansy", r"^pansies",
    r"^sissy", r"^sissies",
    # sexual terms and anatomy
    r"^sex", r"sexual", r"sexism", r"sexist", r"^porn", r"pornograph", r"orgasm", r"masturb",
    r"ejacul", r"sperm", r"^semen", r"^vagin", r"clitor", r"^genital", r"^penis", r"^penile",
    r"(^|auto|homo)erotic", r"^erotica", r"bestial", r"pedophil", r"paedophil", r"incest",
    r"^rapist", r"^rape", r"^raping", r"molest", r"^pervert", r"^perversion", r"^titty",
    r"titties", r"^tits$", r"^boob", r"^horny", r"^hooker", r"^nympho", r"prostitut",
    r"^brothel", r"^bordello", r"lesbian", r"bisexual", r"transsex", r"^scrot", r"testic",
    r"fellat", r"cunnil", r"^pubic", r"^pubes", r"^condom", r"^dildo", r"^vibrator",
    r"^whore", r"^slut", r"^skank", r"^harlot", r"^strumpet", r"^trollop", r"^floozy",
    r"^floozie", r"^hussy", r"^hussies", r"^wench", r"^concubin", r"^courtesan", r"^gigolo",
    r"^pimp$", r"^pimps$", r"^pimped", r"^pimping", r"^lecher", r"^lewd", r"^smut",
    r"^raunch", r"^bawd", r"^kinky", r"^kinkier", r"^fetish", r"^bondage", r"^nude",
    r"^nudity", r"^nudist", r"^naked", r"^seduc", r"^intercourse", r"^foreplay",
    r"^erection", r"^arousal", r"^adulter", r"^sodom", r"^orgy$", r"^orgies$", r"^orgiast",
    r"^stripper", r"^striptease", r"^playboy", r"^sleaz", r"^voyeur", r"^flasher",
    r"^mistress", r"^virgin", r"^breast", r"^bosom", r"^nipple", r"^buttock", r"^butts?$",
    r"^booby", r"^boobies", r"^pussy", r"^pussies", r"^cocks?$", r"^cocky", r"^cockier",
    r"^dicks?$", r"^pricks?$", r"^willy", r"^willies", r"^wiener", r"^weiner", r"^schlong",
    r"^dong$", r"^dongs$", r"^boner", r"^hooters", r"^spunk", r"^jizz", r"^shag(s|ged|ging)?$",
    r"^bonk",
    r"^nookie", r"^randy$", r"^randier", r"^lust", r"^libido", r"^libidinous", r"^obscen",
    r"^harem", r"^eunuch", r"^anus$", r"^anal$", r"^anally", r"^rectum", r"^rectal",
    r"^enema", r"^menstru", r"^tampon", r"^farts?$", r"^farted", r"^farting", r"^turd", r"^poop",
    r"^crotch",
    r"^groin", r"^loins?$", r"^undies", r"^panties", r"^knickers", r"^thong",
    r"^transvest", r"^intersex", r"^hermaphrod", r"^castrat", r"^circumcis", r"^impoten",
    r"^abortion", r"^contracept", r"^syphil", r"^gonorrh", r"^herpes",
    r"^venereal",
    # drugs and intoxication
    r"cocaine", r"^heroin$", r"marijuana", r"cannabis", r"^hashish", r"^opium", r"^opiate",
    r"narcotic", r"^junkie", r"^junky$", r"crackhead", r"pothead", r"^stoned$", r"^overdos",
    r"amphetamine", r"^methadone", r"^morphine", r"^dope", r"^doping", r"^booz", r"drunk",
    r"hangover", r"alcoholi", r"^tipsy", r"^liquor", r"^vodka", r"^whisk(e)?y", r"^whiskies",
    r"^tequila", r"^bourbon", r"^moonshine", r"^narcos",
    # grim, violent or hateful topics
    r"suicid", r"terroris", r"genocid", r"^lynch", r"^holocaust", r"^massacre", r"^torture",
    r"^murder", r"^slave", r"^slavery", r"^nazi", r"^swastika", r"^fascis", r"^racis",
    r"^bigot", r"^corpse", r"^carcass", r"^decapitat", r"^behead", r"^kidnap", r"^hostage",
    r"^execution", r"^gallows", r"^noose", r"^molotov", r"^jihad", r"^infidel", r"^heathen",
    r"^satan", r"^devil", r"^demonic", r"^damnation", r"^pogrom",
    # more slang: sexual, drug, insults and slurs
    r"^hymen", r"^pecker", r"^glans$", r"^hickey", r"^wuss", r"^tush", r"^pomm(y|ie)",
    r"^nooky", r"^butch", r"^mammy", r"^mammies", r"^gimp", r"^loony", r"^loonie",
    r"^wacko", r"^pygm", r"^jerry$", r"^jakes$", r"^johnny", r"^knockers", r"^jism",
    r"^jissom", r"^spliff", r"^reefer", r"^ganja", r"^tokes?$", r"^toking", r"^bongs?$",
    r"^baccy", r"^bevvy", r"^pisshead", r"^schmuck", r"^shmuck", r"^putz", r"^nutjob",
    r"^schizo", r"^eskimo", r"^twinks?$", r"^fatty", r"^fatso", r"^ponce", r"^poncy",
    r"^greaser", r"^micks?$", r"^mickey", r"^paddy", r"^paddies", r"^limey", r"^hillbill",
    r"^pikey", r"^chav", r"^dikes?$", r"^bender", r"^hooch", r"^shtup", r"^lezz",
    r"blowjob", r"^cadaver", r"^vulva", r"^mammar", r"^ovar(y|ies)$", r"^crucif", r"^peyote",
    r"^voodoo", r"^frigidity", r"^stupid", r"^cervi(x|ces|cal)", r"^jockstrap", r"^fanny",
    r"^fannies", r"^max(ed|es|ing)?$", r"^upchuck", r"^bazooka", r"^howitzer",
]

EN_BLOCK_WORDS = """
    arse ass damn crap piss sod bugger bollocks turd fart poo poop
    scum slag tramp hoes bimbo skank tosser minger nonce
    cock dick prick bum booty wang
    spank snog grope fondle
    gay gays lesbo dyke homo fag fags
    drug drugs
    killer killing bomber shooting stabbing bloodshed gore gory assault rape
    sniper grenade
    beer wine lager booze alcohol cocktail champagne brandy cider gin rum ale
    cigar cigarette tobacco nicotine
    stupid idiot moron psycho lunatic nutcase nutter weirdo
    bitch whore slut sexy sex
    negro negress coon wop kraut chink gook
    """.split()

ES_BLOCK_PATTERNS = [
    # profanity and insults
    r"^puta", r"^puto", r"^putañ", r"^puter", r"mierd", r"^coño", r"^jod(er|ido|ienda)",
    r"cabr[oó]n", r"pendej", r"^verga", r"^pollas?$", r"gilipoll", r"^foll(ar|ador|[oó]n)",
    r"^culo", r"culear", r"chingar", r"chingad", r"^carajo", r"coj[oó]n", r"^huev[oó]n",
    r"^mamar", r"^mamad", r"^mam[oó]n", r"^pajer", r"^pajill", r"^puñet", r"^capull",
    r"^ojete", r"^ort[oi]$", r"^concha$", r"^pinche$", r"^cagar", r"^cagad", r"^cag[oó]n",
    r"^mear", r"^meada", r"^meador", r"^pedo$", r"^pedorr", r"^cipote", r"^carallo",
    r"^joput", r"^tont[oa]", r"^est[uú]pid", r"^imb[eé]cil", r"^idiot", r"^cret[ií]n",
    r"^subnormal", r"^retrasad", r"^mong[oó]l", r"^tarad", r"^zoquete", r"^bastard",
    r"^malnacid", r"^hijoputa", r"^hostias?$", r"^perra$", r"^perras$",
    # slurs (ethnic, religious, homophobic)
    r"^maric", r"^mariquit", r"^bujarr", r"^bollera", r"^tortiller", r"^travelo", r"^sarasa",
    r"^marip[oó]s[oó]n", r"^negr", r"^sudaca", r"^gitan", r"^judiada", r"^jud[ií]", r"^marran",
    r"^moros?$", r"^moras?$", r"^morisc", r"^morisma", r"^chin[oa]s?$", r"^indi[oa]s?$",
    r"^gabacho", r"^gringo", r"^cholo", r"^chola$", r"^mulat", r"^zambo", r"^mestiz",
    r"^charnego", r"^polaco$", r"^esclav",
    # sexual terms and anatomy
    r"^sexo", r"sexual", r"^porno", r"^penes?$", r"^vagin", r"^cl[ií]tor", r"^tetas?$",
    r"^tetilla", r"^tetona", r"^pez[oó]n", r"^senos?$", r"^pechos?$", r"^nalga", r"^trasero",
    r"^prostitu", r"^ramera", r"^meretri", r"^burdel", r"^lupanar", r"^prost[ií]bul",
    r"^furcia", r"^fulana", r"^zorra", r"^golfa", r"^pelandus", r"^manceb", r"^barragan",
    r"^concubin", r"^orgasm", r"^eyacul", r"^esperma", r"^semen", r"^er[oó]tic", r"^lujuri",
    r"^lascivi", r"^libidin", r"^l[uú]bric", r"^obscen", r"^incest", r"^violad", r"^violar",
    r"^violaci[oó]n", r"^estupro", r"^sodom", r"^pederast", r"^ped[oó]fil", r"^ad[uú]lter",
    r"^amantes?$", r"^desnud", r"^virgen", r"^virginal", r"^virginidad", r"^cond[oó]n",
    r"^preservativo", r"^test[ií]cul", r"^escroto", r"^prepucio", r"^pubis", r"^p[uú]bic",
    r"^pubian", r"^ano$", r"^anal$", r"^coito", r"^c[oó]pula", r"^fornic", r"^lesbian",
    r"^homosex", r"^bisex", r"^travest", r"^eunuco", r"^castrar", r"^cachond",
    r"^calent[oó]n", r"^ligue$", r"^menstru", r"^abort", r"^preñ", r"^s[ií]filis",
    r"^ven[eé]re", r"^gonorre", r"^bubas", r"^lenocinio", r"^alcahuet", r"^proxeneta",
    r"^rufi[aá]n", r"^chulo$", r"^har[eé]n", r"^serrallo", r"^cornudo", r"^pechugona",
    r"^bragas?$", r"^sost[eé]n$", r"^calzoncillo", r"^f[aá]lic", r"^orgi[aá]", r"^defeca",
    r"^erecci", r"^ovula", r"^castraci", r"^sifil", r"^horn[ií]a$", r"^coll[oó]n",
    # drugs, alcohol, tobacco
    r"^droga", r"^coca[ií]n", r"^hero[ií]na$", r"^marihuan", r"^opio$", r"^opi[aá]ce",
    r"^narc[oó]tic", r"^borrach", r"^ebri", r"^embriag", r"^alcohol", r"^resaca",
    r"^cerveza", r"^aguardient", r"^dipsoman", r"^tequila", r"^vodka", r"^whisky", r"^ginebra",
    r"^licor",
    r"^cigarro", r"^cigarrillo", r"^tabaco", r"^nicotin", r"^porro$", r"^canuto", r"^beodo",
    r"^curda", r"^vino$", r"^vinos$", r"^champ[aá]n", r"^coñac",
    # grim, violent or hateful topics
    r"^suicid", r"^terroris", r"^genocid", r"^linchar", r"^holocaust", r"^masacre",
    r"^tortura", r"^asesin", r"^homicid", r"^degoll", r"^decapit", r"^ahorcar", r"^ahorcad",
    r"^horca$", r"^pat[ií]bulo", r"^cad[aá]ver", r"^nazi", r"^fascis", r"^racist", r"^racism",
    r"^sat[aá]n", r"^diabl", r"^demoni", r"^infiern", r"^verdugo", r"^secuestr", r"^matanza",
    r"^exhuma", r"^mutila", r"^amputa",
]

ES_BLOCK_WORDS: list[str] = []     # everything is covered by the patterns above

_EN_BLOCK_RE = re.compile("|".join(f"(?:{p})" for p in EN_BLOCK_PATTERNS))
_ES_BLOCK_RE = re.compile("|".join(f"(?:{p})" for p in ES_BLOCK_PATTERNS))


def _inflections(word: str) -> set[str]:
    """Regular English inflections of a blocked word: -s, -es, -(e)d, -ing, -(e)r, -(e)rs and
    (not after e) -y, with a doubled final consonant and y -> i where English does that."""
    forms = {word, word + "s", word + "es"}
    if word.endswith("e"):
        forms |= {word + "d", word + "r", word + "rs", word[:-1] + "ing"}
        return forms
    stems = [word]
    if len(word) >= 3 and word[-1] not in "aeiouwxy" and word[-2] in "aeiou" \
            and word[-3] not in "aeiou":
        stems.append(word + word[-1])
    for stem in stems:
        forms |= {stem + "ed", stem + "ing", stem + "er", stem + "ers", stem + "y"}
    if word.endswith("y"):
        forms |= {word[:-1] + "ies", word[:-1] + "ied", word[:-1] + "ier", word[:-1] + "iest"}
    return forms


_EN_BLOCK_SET = set().union(*(_inflections(w) for w in EN_BLOCK_WORDS))


def fold_es(word: str) -> str:
    """Spanish comparison key: lowercase, accents removed (á->a, ü->u), but ñ kept distinct."""
    word = word.lower().replace("ñ", "\0")
    stripped = "".join(c for c in unicodedata.normalize("NFD", word)
                       if unicodedata.category(c) != "Mn")
    return unicodedata.normalize("NFC", stripped.replace("\0", "ñ"))


_ES_BLOCK_SET = {fold_es(w) for w in ES_BLOCK_WORDS}


def blocked_en(word: str) -> bool:
    return word in _EN_BLOCK_SET or bool(_EN_BLOCK_RE.search(word))


def blocked_es(word: str) -> bool:
    folded = fold_es(word)
    return (folded in _ES_BLOCK_SET or bool(_ES_BLOCK_RE.search(word))
            or bool(_ES_BLOCK_RE.search(folded)))


def stable_order(words, salt: str) -> list[str]:
    """A pseudo-random but stable order: each word's place depends only on SEED, the salt and
    the word itself, so adding or removing one word does not reshuffle all the others."""
    def key(word: str) -> str:
        return hashlib.sha256(f"{SEED}:{salt}:{word}".encode("utf-8")).hexdigest()
    return sorted(words, key=key)


# --------------------------------------------------------------------------------------------
# The verifier's word rules (kept in sync with DESIGN.md, "The pack format (version 1)")
# --------------------------------------------------------------------------------------------

_SEPARATORS = " -'"


def word_problem(word: str, min_letters: int = 2) -> str | None:
    """Return why `word` breaks the pack rules, or None when it is valid."""
    if not isinstance(word, str):
        return "not a string"
    if unicodedata.normalize("NFC", word) != word:
        return "not NFC"
    if word != word.lower():
        return "not lowercase"
    letters = [c for c in word if c.isalpha()]
    if not min_letters <= len(letters) <= 40:
        return f"{len(letters)} letters"
    for c in word:
        if not (c.isalpha() or c in _SEPARATORS):
            return f"bad character {c!r}"
    if word[0] in _SEPARATORS or word[-1] in _SEPARATORS:
        return "separator at an end"
    if any(a in _SEPARATORS and b in _SEPARATORS for a, b in zip(word, word[1:])):
        return "two separators in a row"
    if word.endswith("'s"):
        return "possessive"
    return None


# --------------------------------------------------------------------------------------------
# SCOWL helpers
# --------------------------------------------------------------------------------------------

LEVELS = (10, 20, 35, 40, 50, 55, 60, 70)


def scowl_words(level: int) -> set[str]:
    """Lowercase a-z words of one SCOWL level (english-words + american-words)."""
    out: set[str] = set()
    for kind in ("english", "american"):
        path = SCOWL / f"{kind}-words.{level}"
        for line in path.read_text(encoding="utf-8").split():
            word = unicodedata.normalize("NFC", line.strip())
            if re.fullmatch(r"[a-z]+", word):
                out.add(word)
    return out


def scowl_abbreviations() -> set[str]:
    out: set[str] = set()
    for path in sorted(SCOWL.glob("*-abbreviations.*")):
        out |= {w.lower().rstrip(".") for w in path.read_text(encoding="utf-8").split()}
    out |= {w.lower() for w in (SCOWL / "special-hacker.50").read_text(encoding="utf-8").split()
            if w.isupper()}
    return out


def scowl_names() -> dict[str, int]:
    """Lowercased proper names and capitalised words, with the most common SCOWL level at
    which each appears (used to drop words that are mainly names: "jerry", "viking")."""
    out: dict[str, int] = {}
    for path in sorted(SCOWL.glob("*")):
        kind, _, level = path.name.rpartition(".")
        if not level.isdigit() or not kind.endswith(("proper-names", "upper")):
            continue
        for w in path.read_text(encoding="utf-8").split():
            w = unicodedata.normalize("NFC", w)
            if w[:1].isupper() and re.fullmatch(r"[A-Za-z]+", w):
                out[w.lower()] = min(out.get(w.lower(), 99), int(level))
    return out


# Words that look like an inflection of a more common word but are nouns in their own right.
NOT_INFLECTIONS = set("""
    evening morning wedding ceiling building feeling meeting painting clothing pudding
    something nothing anything everything interest belongings savings surroundings
    earnings lodging beginning ending setting heading landing opening reading ruling
    warning drawing blessing icing stuffing frosting filling lining dumpling shilling
    feed seed need weed bleed breed speed greed steed creed tweed
    news glasses species series physics politics mathematics athletics economics
    lens bias thanks means goods arms clothes jeans pants scissors shorts stairs tongs
    early lovely lonely lively likely friendly family holy ugly silly jolly curly elderly
    belly bully rally reply apply supply ally only fly
""".split())

# Irregular past tenses and participles: verb forms rather than words in their own right
# (forms that are also everyday nouns or adjectives, like "saw", "left" or "frozen", stay).
IRREGULAR_FORMS = set("""
    arisen arose awoke awoken bade became began begun bitten blew blown borne bought brought
    caught chose chosen clung crept dealt drank drawn dreamt drew driven drove eaten fled flew
    flown flung forbade forbidden forgave forgiven forgot forgotten forsook fought froze gave
    given gone gotten grew grown heard hid knelt knew known lain leapt meant misled mistook
    mistaken risen rode ridden sang sank shaken shone shook shown shrank slain slid slung
    sought spat sped spoke spoken sprang sprung stank stole stolen strode struck strung stuck
    stung sung sunk swam swept swore sworn swum swung taken taught threw thrown told took trod
    trodden undergone undertaken undertook underwent wept woke woken wore worn wove woven wrote
    written withdrew withdrawn been done sold kept slept lent spent sent stood understood held
    built paid burnt learnt spelt smelt spilt dwelt thrived strove striven mislaid overcame
    overtook overtaken overthrew overthrown forsaken beheld befell befallen
    hooves kibbutzim joyrode undid overrode overwritten rewritten underlain
""".split())


def is_inflection(word: str, level_of: dict[str, int], any_level: bool = False) -> bool:
    """True for a regular plural, third person, past tense, gerund, comparative, superlative or
    -ly adverb of a word that is itself listed, at least as common (so only the base form is
    kept: "walked" goes when "walk" is there, "evening" stays although "even" is there).
    With any_level, the base form may be rarer than the word itself."""
    if word in NOT_INFLECTIONS:
        return False
    if word in IRREGULAR_FORMS:
        return True
    level = 100 if any_level else level_of.get(word, 99)

    def listed(base: str) -> bool:
        return len(base) >= 3 and level_of.get(base, 100) <= level

    w = word
    if w.endswith("ies") and listed(w[:-3] + "y"):
        return True
    if w.endswith("zes") and listed(w[:-3]):                      # fezzes, whizzes
        return True
    if w.endswith(("cked", "cking")) and listed(w[: w.rindex("k")]):  # zincked, panicking
        return True
    if w.endswith("men") and listed(w[:-3] + "man"):              # workmen
        return True
    if w.endswith("es") and w[-3:-2] in ("s", "x", "z", "h", "o") and listed(w[:-2]):
        return True
    if w.endswith("s") and not w.endswith("ss") and listed(w[:-1]):
        return True
    if w.endswith("ed"):
        if listed(w[:-2]) or listed(w[:-1]):
            return True
        if w.endswith("ied") and listed(w[:-3] + "y"):
            return True
        if len(w) > 5 and w[-3] == w[-4] and listed(w[:-3]):
            return True
    if w.endswith("ying") and listed(w[:-4] + "ie"):
        return True
    if w.endswith("ing"):
        stem = w[:-3]
        if listed(stem) or listed(stem + "e"):
            return True
        if len(stem) > 2 and stem[-1] == stem[-2] and listed(stem[:-1]):
            return True
    if w.endswith(("ier", "iest")) and listed(w[: w.rindex("i")] + "y"):
        return True
    if w.endswith("est") and len(w) >= 6:
        if listed(w[:-3]) or listed(w[:-2]) or (w[-4] == w[-5] and listed(w[:-4])):
            return True
    if w.endswith("er") and len(w) >= 5:
        # a comparative: its superlative is listed too ("longer"/"longest", "finer"/"finest")
        for base in (w[:-2], w[:-1], w[:-3] if w[-3] == w[-4] else ""):
            if base and listed(base) and (base + "est" in level_of or base + "st" in level_of
                                          or base + base[-1:] + "est" in level_of):
                return True
    if w.endswith("ly") and len(w) >= 5:
        if listed(w[:-2]) or (w.endswith("ily") and listed(w[:-3] + "y")):
            return True
        if w.endswith("ically") and listed(w[:-4]):
            return True
    return False


# --------------------------------------------------------------------------------------------
# Pack 1: base-english ("Everyday English")
# --------------------------------------------------------------------------------------------

BASE_TARGET = 3000
# Common words that SCOWL 10-20 lists but that read badly as a lone hangman answer
# (function words, fragments, Britishisms, jargon, capitalised-in-practice words).
BASE_DROP = set("""
    also amongst anyhow anyway anyways ditto else etcetera hence hereby herein hither thereof
    thereby therein thus whence whereas whereby wherein whilst yeah okay gonna wanna
    unto upon toward towards lest amid amidst albeit
    bible french info baud char datum unset delimiters graffito subroutine indirection
    analogue thieve wive bust dumb pends coke scotch roman guinea thee demented hangman freak
""".split())


def make_base(abbreviations: set[str], names: dict[str, int],
              level_of: dict[str, int]) -> tuple[list[str], list[str]]:
    def eligible(word: str) -> bool:
        return (4 <= len(word) <= 12 and word not in abbreviations and word not in BASE_DROP
                and names.get(word, 99) > level_of[word]
                and not blocked_en(word) and not is_inflection(word, level_of))

    level10 = sorted(w for w in scowl_words(10) if eligible(w))
    level20 = sorted(w for w in scowl_words(20) - set(level10) if eligible(w)
                     and level_of.get(w) == 20)
    chosen = list(level10)
    if len(chosen) < BASE_TARGET:
        chosen += stable_order(level20, "base")[: BASE_TARGET - len(chosen)]
    chosen = sorted(set(chosen))
    short = [w for w in chosen if len(w) <= 6]
    long_ = [w for w in chosen if len(w) >= 7]
    return short, long_


# --------------------------------------------------------------------------------------------
# Pack 3: hard-words ("Hard Words")
# --------------------------------------------------------------------------------------------

HARD_TARGET = 1000
HARD_PER_LENGTH = {5: 330, 6: 300, 7: 200, 8: 110, 9: 60}     # sums to HARD_TARGET
RARE_BONUS = {"j": 1.6, "q": 1.6, "x": 1.5, "z": 1.5, "k": 1.0, "v": 1.0, "w": 0.8, "y": 0.8,
              "f": 0.3, "b": 0.2, "h": 0.2, "m": 0.2, "p": 0.2, "g": 0.2}
LEVEL_PENALTY = {35: 0.0, 40: 0.0, 50: 0.3, 55: 0.8, 60: 1.2}
HARD_LEVELS = (35, 50)     # sizes 55-70 were tried: mostly regional slang, archaic or jargon
# Real but too obscure, archaic, regional, technical or name-like for a word game (reviewed
# by hand; a dropped word's slot goes to the next best word of the same length).
HARD_DROP = set("""
    wright crick purvey forsworn carjacker schlock postdoc
    blowzy bulgy byplay chyron cozen croupy crumby dacha drolly fakir fillip firth fixity
    fluky frowzy furze gazer gouty haymow howdah husker jobber joggle junker kapok matzoh
    maven middy milch minim mizzen mukluk pekoe pipit shirr skivvy slangy sward tunny twofer
    vivify waster wight withal wampum colloquy comport doxology futurity goldbrick hardtack
    highboy hockshop horology jabberer jerkwater lampblack laywoman menfolk mummery obloquy
    phonology porphyry pothook prolixity stylize towpath triptych tankful citizenry cytology
    laudably probity smirch wroth matzot organdy viburnum lachrymal cosmogony bindery
    currycomb haycock wrack gunny bigamy lobotomy anthrax sputum bowel cockle cockscomb
    stopcock woodcock cockeyed hangman hookup coxcomb
""".split())


def solver_wrong_guesses(words: list[str]) -> dict[str, int]:
    """Simulate a strong hangman player: always guess the letter that occurs in the most of the
    remaining candidate words of the right length (ties alphabetical), narrow the candidates by
    the revealed pattern, stop when one candidate is left. Returns, per word, the number of
    wrong guesses that player makes: a direct measure of how hard a word is to guess."""
    result: dict[str, int] = {}
    stack = [(sorted(words), frozenset(), 0)]
    while stack:
        candidates, guessed, wrong = stack.pop()
        if len(candidates) == 1:
            result[candidates[0]] = wrong
            continue
        counts: collections.Counter[str] = collections.Counter()
        for w in candidates:
            counts.update(set(w) - guessed)
        letter = min(counts, key=lambda c: (-counts[c], c))
        parts: dict[tuple[int, ...], list[str]] = collections.defaultdict(list)
        for w in candidates:
            parts[tuple(i for i, c in enumerate(w) if c == letter)].append(w)
        for pattern, part in sorted(parts.items()):
            stack.append((part, guessed | {letter}, wrong + (0 if pattern else 1)))
    return result


def hardness(word: str, wrong: int, level: int) -> float:
    distinct = set(word)
    vowels = len(distinct & set("aeiou"))
    score = float(wrong)
    score += sum(RARE_BONUS.get(c, 0.0) for c in sorted(distinct))   # sorted: same float sum
    score += {0: 1.5, 1: 1.0, 2: 0.0}.get(vowels, -0.7 * (vowels - 2))
    score -= LEVEL_PENALTY[level]
    return round(score, 6)


def make_hard(level_of: dict[str, int], abbreviations: set[str], names: dict[str, int]
              ) -> tuple[list[str], list[str], dict[str, float]]:
    # The simulated player knows the words of SCOWL sizes up to 60.
    by_length: dict[int, list[str]] = collections.defaultdict(list)
    for w, level in level_of.items():
        if level <= 60:
            by_length[len(w)].append(w)
    pool: dict[int, list[str]] = collections.defaultdict(list)
    for w in sorted(level_of):
        level = level_of[w]
        if not (5 <= len(w) <= 9 and HARD_LEVELS[0] <= level <= HARD_LEVELS[1]):
            continue
        if (w in abbreviations or w in HARD_DROP or blocked_en(w)
                or is_inflection(w, level_of, any_level=True)
                or names.get(w, 99) <= level):
            continue
        if not (set(w) & set("jqxzkvwy")) and len(set(w) & set("aeiou")) > 1:
            continue
        pool[len(w)].append(w)
    scores: dict[str, float] = {}
    chosen: list[str] = []
    for n, quota in sorted(HARD_PER_LENGTH.items()):
        wrong = solver_wrong_guesses(sorted(set(by_length[n]) | set(pool[n])))
        for w in pool[n]:
            scores[w] = hardness(w, wrong[w], level_of[w])
        chosen += sorted(pool[n], key=lambda w: (-scores[w], w))[:quota]
    short = sorted(w for w in chosen if len(w) <= 6)
    long_ = sorted(w for w in chosen if len(w) >= 7)
    return short, long_, scores


# --------------------------------------------------------------------------------------------
# Pack 4: spanish ("Palabras en español")
# --------------------------------------------------------------------------------------------

ES_TARGET = 3000
ES_ACCENTED_SHARE = 0.32        # this share of the pack has ñ, ü or an accent

# Everyday Spanish vocabulary written for this pack; only the ones wspanish also lists are
# kept, so every shipped word is in the public-domain source list.
ES_CORE = """
    caballo cerdo oveja conejo ratón pájaro águila paloma gallina pollo tortuga serpiente
    lagarto pescado tiburón ballena delfín pulpo cangrejo camarón medusa abeja hormiga mosca
    mosquito mariposa araña caracol gusano escarabajo tigre elefante jirafa cebra gorila
    camello canguro pingüino zorro ardilla ciervo venado lechuza cisne burro cordero cabra
    jabalí hipopótamo cocodrilo avestruz murciélago colibrí tucán morsa nutria castor mapache
    búfalo leopardo pantera hiena chacal lince jaguar panda ternero potro yegua gaviota
    golondrina gorrión cuervo halcón buitre flamenco pelícano faisán perdiz codorniz salmón
    trucha sardina atún langosta almeja ostra caballito grillo cigarra libélula luciérnaga
    saltamontes escorpión lombriz camaleón iguana ardilla erizo topo comadreja mofeta
    manzana naranja plátano fresa cereza limón sandía melón durazno mango papaya ciruela
    frambuesa aguacate tomate cebolla lechuga zanahoria patata pepino calabaza berenjena
    pimiento espinaca maíz frijol lenteja garbanzo queso leche huevo jamón tocino salchicha
    chorizo carne galleta pastel helado chocolate azúcar caramelo harina aceite vinagre
    pimienta canela ensalada tortilla empanada bocadillo desayuno almuerzo comida merienda
    postre bebida limonada mermelada panecillo bizcocho yogur cereal avena almendra nuez
    castaña cacahuete avellana aceituna ajo perejil albahaca orégano champiñón espárrago
    alcachofa coliflor rábano apio calabacín guisante melocotón albaricoque pomelo granada
    higo membrillo sopa caldo guiso arroz fideos macarrones paella salsa mostaza
    cocina comedor dormitorio ventana puerta pared techo suelo escalera jardín balcón garaje
    sótano almohada sábana manta silla sillón armario cajón espejo lámpara cuadro alfombra
    cortina estante nevera horno estufa cuchara cuchillo tenedor plato botella sartén jabón
    toalla cepillo peine tijeras reloj teléfono televisor llave candado basura escoba bañera
    ducha grifo lavabo chimenea tejado azotea pasillo ladrillo buzón timbre enchufe bombilla
    vela cazuela cubierto servilleta mantel bandeja jarra taza tazón cuenco colchón cuna
    montaña lago playa arena océano isla bosque selva desierto volcán colina valle campo
    prado cielo lluvia nieve viento tormenta trueno relámpago arcoíris estrella planeta
    tierra piedra roca árbol hoja flor rosa girasol margarita tulipán hierba césped semilla
    raíz rama tronco fruta otoño invierno verano primavera mañana tarde noche madrugada
    semana cascada arroyo orilla costa acantilado cueva glaciar pradera charco niebla
    granizo escarcha brisa huracán cometa galaxia universo amanecer atardecer horizonte
    paisaje laguna pantano marea ola espuma concha coral musgo helecho bellota pino roble
    olivo palmera cactus nenúfar orquídea clavel azucena violeta jazmín lirio amapola
    cabeza cabello frente ceja pestaña oreja nariz mejilla boca labio diente lengua barbilla
    cuello hombro brazo codo muñeca mano dedo uña espalda barriga estómago cintura rodilla
    pierna tobillo talón corazón pulmón hueso músculo cerebro esqueleto garganta pulgar
    familia madre padre hermano hermana abuelo abuela primo sobrino nieto bebé niño niña
    chico chica amigo amiga vecino maestro maestra profesor alumno estudiante médico
    enfermero doctor bombero policía cartero panadero carnicero pescador granjero cocinero
    camarero piloto marinero soldado abogado juez ingeniero arquitecto científico artista
    pintor escritor músico cantante bailarín actor payaso mago príncipe princesa caballero
    pirata vaquero dentista peluquero mecánico carpintero jardinero astronauta explorador
    detective inventor poeta campeón capitán guerrero héroe heroína gigante duende hada
    bruja brujo dragón monstruo fantasma robot sirena unicornio señor señora
    lápiz bolígrafo cuaderno libro mochila pizarra regla goma papel carpeta escuela colegio
    clase examen lección tarea pregunta respuesta número letra palabra idioma historia
    ciencia música dibujo deporte fútbol pelota juguete cometa bicicleta columpio tobogán
    ajedrez guitarra piano tambor violín trompeta flauta canción película cámara fotografía
    pantalla teclado diccionario biblioteca mapa globo tiza pegamento sacapuntas
    coche carro autobús camión tren avión barco motocicleta cohete submarino tractor
    ambulancia calle camino carretera puente ciudad pueblo plaza parque mercado tienda
    panadería farmacia hospital museo teatro estación aeropuerto puerto castillo torre
    edificio oficina fábrica granja hotel cafetería banco frutería juguetería zapatería
    librería semáforo esquina barrio avenida rascacielos velero canoa balsa globo patinete
    camisa camiseta pantalón falda vestido abrigo chaqueta suéter bufanda guante sombrero
    gorra zapato zapatilla bota calcetín cinturón corbata pijama bolsillo botón paraguas
    gafas anillo collar pulsera maleta cartera bolso pañuelo delantal uniforme disfraz
    corona capa jersey sandalia
    grande pequeño bonito hermoso rápido lento fuerte débil largo corto nuevo viejo joven
    caliente fresco limpio sucio feliz triste alegre contento enojado cansado dulce salado
    amargo blanco amarillo rojo verde azul morado rosado marrón gris dorado plateado claro
    oscuro suave duro blando pesado ligero lleno vacío rico pobre valiente amable simpático
    divertido aburrido tranquilo ruidoso difícil fácil importante famoso antiguo moderno
    enorme diminuto delgado redondo cuadrado precioso sencillo extraño tímido curioso
    perezoso ordenado cariñoso generoso orgulloso peligroso delicioso sabroso maravilloso
    mágico brillante hambriento sediento dormido despierto educado honrado sincero
    inteligente listo sabio gracioso travieso silencioso invisible
    caminar correr saltar nadar volar comer beber dormir hablar cantar bailar jugar leer
    escribir dibujar pintar cocinar limpiar lavar trabajar estudiar aprender enseñar
    escuchar mirar buscar encontrar abrir cerrar subir bajar entrar salir llegar viajar
    esperar ayudar comprar vender pagar ganar perder pensar recordar olvidar soñar reír
    llorar sonreír gritar preguntar responder contestar explicar llamar llevar traer tomar
    dejar poner sacar empujar tirar romper arreglar construir crear cortar coser regar
    plantar crecer nacer vivir conocer saber querer poder tener hacer decir venir seguir
    empezar terminar acabar descansar despertar levantar sentar vestir peinar cepillar
    desayunar almorzar cenar celebrar regalar visitar explorar descubrir inventar imaginar
    adivinar contar sumar restar dividir medir pesar nevar llover brillar navegar patinar
    escalar pescar cazar montar conducir manejar respirar silbar aplaudir abrazar besar
    saludar compartir cuidar proteger guardar esconder mostrar elegir decidir intentar
    practicar ensayar viajar acampar bucear brincar trepar gatear rodar girar temblar
    amistad alegría tristeza felicidad libertad verdad mentira sueño aventura misterio
    secreto sorpresa regalo fiesta cumpleaños vacaciones viaje juego tesoro brújula noticia
    silencio ruido sonido color forma tamaño dinero moneda precio trabajo salud fuerza
    energía memoria paciencia esperanza confianza valentía cariño ternura risa sonrisa
    broma chiste cuento leyenda fábula poema canción baile carrera partido equipo premio
    medalla trofeo victoria derrota idea pensamiento deseo promesa recuerdo costumbre
    tradición cultura país nación bandera gobierno escudo reino imperio frontera
    compañero compañera cabaña leña piñata muñeco otoño diseño campaña pañuelo extraño
    añadir bañar reseña contraseña rebaño engaño leñador ñandú albañil cigüeña vergüenza
    bilingüe lingüista antigüedad paragüero desagüe ungüento pedigüeño agüero bañador
    caña castaño ermitaño montañés pañal peñasco puñado rasguño riñón señal sueño tacaño
    añoranza cañón cañada cuñado dueño ensueño hazaña lasaña maña mañoso niñera
    pestañear pequeñez sureño norteño isleño risueño madrileño otoñal añejo buñuelo
    ceñido greña teñir reñir gruñir gruñido bañista caballero enseñanza
    abanico abogacía abrelatas acuarela adorno afición agujero aguja ahorro alambre alarma
    albóndiga alcalde alcancía aldea alegría alerta aliento alimento almacén alquiler altura
    alumbrado amanecer ambiente anciano ancla andamio andén ángulo anillo animal antena
    antifaz anuncio apellido aplauso apodo aprendiz apuesta arbusto archivo ardilla arena
    armario armonía arroyo artículo ascensor asiento aspiradora ático atleta aula aumento
    ausencia autopista avellana aventura ayuda azafata azulejo bahía balanza balcón ballena
    bambú bandeja bañador barandilla barbero barquillo barranco barril bastón batalla
    batería batidora baúl bellota berenjena biberón bigote billete bisabuelo bizcocho
    blusa bocina bodega bolera bolígrafo bombón bordado borrador bosque bostezo botiquín
    brocha bufanda búho bujía burbuja butaca buzón caballete cabaña cable cacerola cadena
    cadera cafetera caimán cajero calcetín calendario calidad calor calzada cámara camello
    camilla campana campesino canasta cancha candela cangrejo canica cantimplora capítulo
    capricho cápsula cara carácter caramelo caravana carbón cárcel cargamento caricatura
    carnaval carpeta carrito carroza carruaje cartel cartón cascabel casco caseta casilla
    castañuela catarata caverna cebolla celeste cemento cenicero centavo centro cepillo
    cerámica cerilla cerradura cesta champú chancla chaleco chapa charca cheque chicle
    chimenea chispa chocolate chupete ciencia cigüeña cinta circo ciruela cisterna citación
    clavija clima cobija cochera cohete cojín colchoneta colegio colmena colmillo columpio
    comercio cometa cómoda compás concierto conejera confeti congelador conserje
    consejo cordillera cordón corral correa cosecha cosquillas crayón crema cremallera
    cristal cruce cuadra cuarto cubeta cubo cuchara cuerda cuerno cuerpo cumbre cuna
    cúpula cuscurro dado dátil dedal delfín deseo desfile despensa destello diadema
    diamante dibujante diploma disco disfraz doctora dominó dragón ducha duende dulcería
    edredón ejemplo ejército elástico elefante empleado enchufe encía enfermera ensalada
    entrada envase equipaje erizo escalón escaparate escenario escoba escondite escritorio
    escultura esfera espada espantapájaros espátula espiga esponja esquí estadio estampa
    estatua estrella estuche etiqueta excursión fachada faisán fantasía farol felpudo
    feria ficha fideo fiebre flecha florero foca fogata folleto fontanero fósforo fotógrafo
    frasco fregadero frontera fruta fuego fuente furgoneta gacela galería gallo ganso
    garaje garra gasolina gemelo gimnasio globo gorrión gota grada granero grapadora grieta
    grúa guante guarida guisante gusano habitación hacha hamaca hamburguesa harina helecho
    herida hermano herradura herramienta hervidor hilo hogar hoguera hojalata hombre
    horario hormiga hornillo huella huerto humo huracán iglú imán impresora incendio
    insecto invento invitado isla jabalina jardín jarrón jaula jinete jirafa joya joyería
    juguete jungla laberinto ladrido lagartija lámpara lana lancha lápiz látigo lavadora
    leche lechuza lector lenteja león letrero libreta licuadora liebre lima linterna
    llanura llavero lobo locomotora loro lupa madera madeja maleta manguera maniquí
    manopla mantel manzana maquillaje máquina marco marioneta mariquita martillo máscara
    mascota matorral mecedora medalla melena mensaje mercado mesita metro micrófono miel
    milla mirador mochila molinillo molino monedero mono monopatín mostrador motor mueble
    muelle muñeco murciélago muro museo nariz naturaleza navaja nido nudo número objeto
    océano oficio ombligo orquesta oruga oso ovillo padrino pájaro pala palacio palanca
    palillo palmera paloma pandereta pantalla pañal pañuelo papelera paquete parada
    paraguas pasajero pasaporte pasatiempo pastilla patinaje patio patrulla pavo payaso
    pecera pegatina pelícano película peluca pendiente pepino percha periódico perla
    persiana pesadilla pestaña petardo pezuña piloto pincel pingüino pinza pirámide
    piscina pista pizarra planeta plancha planta plátano plumero pluma portería postal
    pozo prisma probeta prismáticos puchero pulsera pupitre quesería químico quiosco
    rabo ración rama ranura rascacielos rastrillo rayo receta recreo red refresco refugio
    regadera regla relámpago remo retrato revista rincón rizo robot rodaja rompecabezas
    ropero rotulador rueda ruleta sábado sacapuntas salero salón saltamontes sandalia
    sapo sartén secador sello semáforo sembrado señal serrucho servilleta silbato sillín
    sobre sofá sombra sombrilla sonajero sopa sótano submarino suéter surtidor tabla
    taburete tacón taladro talla tallarín tapete tapón taquilla tarjeta tarro taza tejado
    tejón telaraña telescopio televisión termómetro ternera terraza tetera tiburón tienda
    tijera timbre tinta tintero tiovivo tirachinas títere tiza toalla tobogán tocador
    tomate tornillo torre tortuga tostada tractor traje trampolín tranvía trapecio
    trapo trébol tren trenza triciclo trigo trineo trofeo trompa trompo tubo tuerca
    tulipán túnel turrón ukelele uniforme urraca vagón vainilla valla vaso vela velador
    velero vendaje ventilador verdura vereda vestíbulo vía vidrio vitrina volante
    yate yema yogur yunque zafiro zaguán zanahoria zapatería zarzamora zumo
    abrazo acuerdo admiración afecto agradecimiento alivio ánimo ansiedad apetito
    asombro atención aventura belleza bondad calma cansancio certeza claridad
    compasión comprensión confusión consuelo coraje cortesía creencia curiosidad
    decisión deleite descanso desorden destino diversión dolor duda elegancia emoción
    empeño encanto energía enfado entusiasmo envidia equilibrio escalofrío esfuerzo
    espíritu estrés éxito experiencia fama fatiga fe firmeza fortuna frescura generosidad
    gratitud gusto hambre honor humildad humor ilusión imaginación inocencia inquietud
    intención interés invención justicia lealtad lección locura lujo madurez maldad
    melodía miedo milagro modestia motivo nostalgia novedad obediencia olvido opinión
    orgullo paz pereza piedad placer pobreza prisa progreso propósito prudencia
    recuerdo refrán rencor respeto riqueza ritmo sabiduría salud sed seguridad
    sencillez sensación sentido serenidad silencio simpatía soledad suerte susto talento
    temor tesoro timidez torpeza trabajo tranquilidad tristeza valor vejez verdad
    vergüenza victoria vida vigor virtud voluntad
    acelerar acercar aconsejar adornar afeitar agarrar agitar agradecer aguantar ahorrar
    alcanzar alegrar alimentar alquilar alumbrar amasar amenazar anotar apagar aparecer
    aplastar apostar apoyar apretar apuntar arrastrar arrancar arrojar asustar atar
    aterrizar atrapar avanzar averiguar avisar bajar barrer batir bendecir borrar
    bostezar brindar burlar cabalgar calentar callar cambiar caminar cansar cargar
    castigar cepillar charlar chillar chocar chupar citar cobrar colgar colocar colorear
    combinar comentar compartir completar comprender comunicar confiar congelar conseguir
    conservar construir contagiar continuar convencer conversar copiar corregir cosechar
    crujir cubrir cumplir curar derretir desatar desear deshacer desordenar despedir
    destapar destruir dibujar dirigir disfrutar disparar distraer divertir doblar
    echar elegir embarcar empatar empujar encantar encender enfadar enfriar
    engordar enredar ensuciar entender enterrar entregar envolver equivocar escoger
    esconder escurrir espiar estirar estornudar evitar exigir explotar fabricar festejar
    firmar flotar fregar freír frotar fumar funcionar galopar golpear gozar grabar
    guardar guiñar hervir hornear huir hundir imitar inflar iluminar inventar invitar
    jalar jugar juntar ladrar lamer lanzar lastimar latir limpiar madrugar manchar
    masticar medir mejorar mentir merendar meter mezclar mojar molestar mover mudar
    murmurar obedecer observar ocultar ofrecer oler olvidar ordenar organizar pasear
    patalear pedalear pegar pelar pellizcar perdonar perseguir pertenecer pinchar
    planchar platicar poblar preparar presumir probar prometer pulir quemar rascar
    recoger recortar regañar regresar reinar relajar rellenar remar repartir repetir
    resbalar rescatar resolver respirar retrasar reunir revolver robar rociar rodar
    roncar rugir sacudir salpicar saltar secar sembrar sentir servir silbar soplar
    soportar sorprender subrayar sudar sujetar suspirar susurrar tapar tardar tejer
    temblar teñir tocar tostar trabajar traducir tragar tropezar untar vaciar valer
    vencer ventilar verter viajar vigilar volcar volver votar zambullir zarpar
    abierto absurdo activo afilado agradable agrio alargado alegre ancho angosto
    apagado apretado áspero atento atrevido azulado bajito bello blanco borroso brillante
    brusco bueno caliente calvo capaz cariñoso celoso cercano chistoso chiquito cómodo
    completo confuso corriente cortés creativo crujiente cuidadoso culpable débil
    decidido delicado derecho desnudo despacio despejado diferente digno dorado educado
    elegante enorme entero escaso espeso estrecho estricto excelente exacto extraño
    famoso favorito feroz fiel firme flaco frágil fresco furioso gastado genial gigante
    goloso gordo gracioso grueso guapo hábil helado hermoso honesto horrible húmedo
    igual impaciente increíble infantil ingenuo inmenso inquieto intenso inútil
    izquierdo juguetón justo lejano lento libre limpio liso listo llano lluvioso
    luminoso maduro mágico malvado manso maravilloso mediano mejor menudo mojado
    molesto montañoso nervioso noble normal nublado obediente oloroso oscuro paciente
    pálido parecido pegajoso peludo perfecto picante plano poderoso preciso profundo
    prudente puntual querido rápido raro real redondo relleno resistente risueño robusto
    romántico rosado rubio ruidoso sagrado salvaje sano seco secreto seguro sencillo
    sensible serio silvestre simpático soleado solitario sonriente sordo suave sucio
    tacaño tierno tonto torpe tostado tranquilo travieso tremendo triste único urgente
    útil valiente veloz verdadero vertical viejo violento visible vivo
    acompañar compañía acuñar alimaña aliño amaño antaño añadido añadidura añicos añorar
    apañar arañazo armiño artimaña bisoño bruñir buñolería calaña campiña cañaveral cañería
    ceñir ceñudo cizaña corpiño costeño cuñada dañino dañar desaliñado desdeñar desdeñoso
    desempeñar desempeño desengaño despeñar diseñador diseñar dueña empañar empeñar
    empeñado empuñadura empuñar encariñar engañar engañoso enmarañar ensoñar entraña
    entrañable escaño escudriñar español estaño extrañar extrañeza gañido garduña gruñón
    guadaña guiño guiñapo halagüeño hogareño huraño legaña lampiño leñera leñoso lugareño
    madroño mañanero maraña marañón meñique migraña montañero montañismo morriña muñequera
    muñón navideño niñez ordeñar pañoleta patraña peldaño peñón pergeñar piñón plañidera
    ponzoña rapiña rebañar refunfuñar reñido retoño ribereño roñoso ruiseñor sabañón
    señalar señorita señorito señorial señorío señuelo soñador soñoliento tacañería tañer
    tañido teñido terruño travesaño trigueño viñedo viñeta vicuña zampoña
    página miércoles lágrima sílaba pirámide triángulo rectángulo círculo plástico metálico
    próximo último público política república gramática informática electrónico bolígrafo
    fantástico artístico eléctrico clásico básico práctico técnico científico histórico
    romántico automático económico teórico lógico trágico cómico típico pánico cántaro
    pétalo brócoli espárrago orégano huésped récord álbum mármol fósil móvil ángel árbitro
    búsqueda región religión ladrón montón algodón razón reunión pasión visión misión
    televisión aéreo héroe maíz raíz reír sonreír tecnología geografía poesía increíble
    fértil frágil hábil inútil ágil dócil cómodo pálido húmedo sólido líquido válido cálido
    ácido lámina fórmula partícula molécula célula válvula mandíbula tiburón caimán
    jabalí colibrí rubí esquí menú champú sofá mamá papá bebé café sillón camión avión
    pulga avispa abejorro polilla canario periquito gamba calamar anguila merluza bacalao
    lubina boquerón lenguado borrego garza grulla tórtola mirlo jilguero cotorra orca
    mejillón cebada centeno levadura magdalena rosquilla churro natillas gelatina
    margarina requesón embutido morcilla croqueta alubia cilantro comino azafrán laurel
    romero tomillo menta pimentón cacao infusión batido horchata gazpacho cocido estofado
    asado parrilla barbacoa cucharón espumadera colador rallador embudo mortero rodillo
    molde termo tendedero cesto perchero mesilla estantería aparador banqueta colcha
    bisagra cerrojo pestillo picaporte portal rellano verja maceta azada carretilla clavo
    alicates sierra lija fregona recogedor bayeta estropajo detergente albornoz grapadora
    despacho reunión informe factura recibo préstamo deuda impuesto sueldo empleo empresa
    taller vendedor comprador oferta rebaja descuento ganancia pérdida jugador delantero
    raqueta maratón patines baloncesto voleibol boxeo natación ciclismo atletismo naipes
    baraja dados peluche arenero suegro yerno nuera madrina ahijado mellizo huérfano viudo
    novio esposo marido muchacho chaval acera bordillo farola rotonda glorieta peaje
    gasolinera freno faro maletero parabrisas matrícula conductor aduana turista albergue
    neblina bruma rocío helada ventoso enero febrero marzo abril junio julio agosto
    septiembre octubre noviembre diciembre lunes martes jueves viernes mediodía medianoche
    anochecer quincena trimestre década siglo milenio segundo fecha aniversario feriado
    cuatro cinco siete nueve catorce quince veinte treinta cuarenta cincuenta sesenta
    setenta ochenta noventa ciento primero tercero quinto sexto séptimo octavo noveno
    décimo docena mitad doble triple carmesí escarlata granate turquesa ocre marfil
    bronce cobre esmeralda ámbar añil acariciar adelantar admirar advertir aprobar asomar
    atender atravesar aumentar balancear bordar calcular calmar cavar comparar convertir
    cruzar cultivar decorar defender demostrar desaparecer detener dudar entrenar gastar
    llenar luchar mandar morder necesitar ocupar parar pedir pelear pisar prestar quedar
    recibir separar temer tratar barato breve caro cerrado distinto enfermo extenso falso
    fino flojo grave hondo menor ridículo suelto tibio torcido zurdo pronto
    acción mamífero reptil víbora vehículo espectáculo obstáculo cráneo hígado párpado
    pómulo cálculo crédito ídolo símbolo método época párrafo título vínculo cilindro
    polígono diámetro perímetro kilómetro centímetro milímetro península cráter tifón
    ciclón barómetro microscopio satélite asteroide órbita eclipse átomo electrón protón
    neutrón acordeón trombón clarinete saxofón xilófono armónica órgano ópera balada
    pintura comedia tragedia novela ogro gnomo vampiro momia varita poción hechizo torreón
    mazmorra botín náufrago catalejo timón mástil oración mansión aprobación emisión
    fanático cosmético hipnótico aromático analítico rústico sintético ovación procesión
    plantación recreación munición evasión jurídico
    """.split()

# Archaic, dialectal, English-looking or opaque words that the cognate tiers let through
# (reviewed by hand after each run).
ES_DROP = set("""
    beneficial canonical eternal perpetual royal eligible vegetable senior cuscurro creatura
    dependente derivo fluente minoridad natura presura puridad secura talente
    abjuración adjuración aeración afásico acético aucción atrición aposición avocación
    capción cogitación collación colusión concusión contorción derrisión deviación
    emendación elación enervación evicción exultación expiación gallería harmonía harmónico
    harpía hesitación impolítico inatención intimación laceración legacía locación
    navigación oblación ordinación palpación peroración placación poetría populación
    probación relegación repleción repúblico rescisión robería sufocación sufusión
    supuración titilación todía toleración tracería tuición undulación valuación vocálico
    víctor árbor yámbico teátrico terrífico horrífico héctico hélico gumía folía dulía
    comunalía auxiliaría contraría diarría bravería oficialía monomanía emético dispéptico
    pelágico geodésico férrico fosfórico mercúrico cámbrico láctico fónico eclíptico
    dactílico filípica seráfico beatífico panegírico sibarítico cístico teosofía
    logical silente defectivo derivativo acróstico artrítico aspersión atestación bombástico
    bufonería calorífico carnación catalítico catártico cesación ciclónico cosmogonía
    cremación deposición derogación difracción dilación disipación distensión elongación
    emaciación epiléptico etiología etnología etnológico eufonía expiración felonía
    filatélico filológico flegmático fonológico frenología fumigación galvánico gástrico
    gradación grafología hepático homeopatía impulsión incisión incubación inhalación
    irrupción lactación locución masónico metabólico monástico mutación neoclásico
    oftálmico oncología paliación parasítico patogénico pirático profusión prostético
    rectoría remisión sacristía salutación sardónico subversión taxonómico telemetría
    telegrafía tautología torsión ulceración disentería cástor árctico maría
    abducción abrogación admonición afectación alegación atenuación bisección cacofonía
    cefálico contrición contusión defección diacrítico dinástico disuasión elisión
    emanación emulación emulsión endémico fonético geofísica herético heurístico iteración
    legación libación letárgico neurálgico neurótico parabólico paralítico polifónico
    secesión sedición seducción sistólico rabínico perdición intrusión pulsación usurpación
    convulsión séptico comédico diamétrico ascético axiomático apostasía artería regalía
    accesión aforístico antitético antárctico colación denotación diminución efusión
    imputación maceración osmótico perversión recitación reversión salivación sedación
    semiótica silábico succión volición fruición
""".split())


def load_spanish() -> list[str]:
    raw = SPANISH.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:          # older wspanish releases were ISO-8859-1
        text = raw.decode("iso-8859-1")
    words = {unicodedata.normalize("NFC", w.strip()).lower() for w in text.split()}
    return sorted(w for w in words if re.fullmatch(r"[a-zñáéíóúü]+", w))


def _norm_cognate(word: str) -> str:
    word = word.replace("ph", "f").replace("th", "t").replace("y", "i")
    return re.sub(r"(.)\1", r"\1", word)


# Regular Spanish/English suffix correspondences: (Spanish ending, English ending). A wspanish
# word whose stem plus the English ending is a common English word is very likely a common
# Spanish word too (atención/attention, básico/basic, ciudadanía is not found, and that is fine).
COGNATE_RULES = [
    ("ción", "tion"), ("sión", "sion"), ("xión", "xion"), ("idad", "ity"), ("dad", "ty"),
    ("ismo", "ism"), ("ista", "ist"), ("ico", "ic"), ("ico", "ical"), ("ica", "ics"),
    ("ario", "ary"), ("orio", "ory"), ("ente", "ent"), ("ante", "ant"), ("encia", "ence"),
    ("encia", "ency"), ("ancia", "ance"), ("ura", "ure"), ("ivo", "ive"), ("ble", "ble"),
    ("al", "al"), ("or", "or"), ("ía", "y"), ("ía", "ia"),
]
# Shapes of archaic or learned spellings that modern Spanish simplified (innocente, substancia,
# absencia) and of words formed from other words rather than used on their own.
ES_ODD = re.compile(r"nn|bs|mn|ph|th|^ps|[^aeiouáéíóú]{4}")


def make_cognate_finder(english: set[str]):
    table = {_norm_cognate(w): w for w in sorted(english) if len(w) >= 4}

    def find(word: str) -> str | None:
        for es_end, en_end in COGNATE_RULES:
            if word.endswith(es_end) and len(word) - len(es_end) >= 3:
                stem = fold_es(word[: len(word) - len(es_end)])
                hit = table.get(_norm_cognate(stem + en_end))
                if hit:
                    return hit
        return None
    return find


def make_spanish(english_by_level: dict[int, set[str]]
                 ) -> tuple[list[str], list[str], dict[str, str]]:
    words = load_spanish()
    source = set(words)

    def feminine_pair(w: str) -> bool:
        return ((w.endswith("a") and w[:-1] + "o" in source)
                or (w.endswith("ora") and w[:-1] in source)
                or (w.endswith("ona") and w[:-3] + "ón" in source)
                or (w.endswith("esa") and w[:-3] + "és" in source))

    def valid(w: str) -> bool:
        return 5 <= len(w) <= 10 and not blocked_es(w) and w not in ES_DROP

    def accented(w: str) -> bool:
        return bool(re.search("[ñáéíóúü]", w))

    common = make_cognate_finder(english_by_level[10] | english_by_level[20])
    less = make_cognate_finder(english_by_level[35] | english_by_level[40])
    why: dict[str, str] = {}
    core = []
    for w in ES_CORE:
        w = unicodedata.normalize("NFC", w)
        if w in source and valid(w) and w not in why:
            core.append(w)
            why[w] = "core"
    tier1, tier2 = [], []
    for w in words:
        if w in why or not valid(w) or feminine_pair(w) or ES_ODD.search(w):
            continue
        if w.endswith(("mente", "arse", "erse", "irse")):
            continue
        hit = common(w)
        if hit:
            tier1.append(w)
        else:
            hit = less(w)
            if hit:
                tier2.append(w)
        if hit:
            why[w] = f"cognate of {hit}"

    # Fill two lists separately so that the share of words with ñ, ü or an accent is met:
    # hand-picked core words first, then cognates of very common English words, then of less
    # common ones; within a tier a seeded pseudo-random order decides. Cognates ending in
    # -ción/-sión and -ico/-ica are capped so they do not crowd out everything else.
    want_marked = int(ES_TARGET * ES_ACCENTED_SHARE)
    want = {True: want_marked, False: ES_TARGET - want_marked}
    caps = {"ción": int(want_marked * 0.22), "ico": int(want_marked * 0.12)}
    capped = {"ción": 0, "ico": 0}
    picked: dict[bool, list[str]] = {True: [], False: []}
    seen: set[str] = set()
    tiers = [sorted(core), stable_order(tier1, "es1"), stable_order(tier2, "es2")]
    for marked in (True, False):
        if not marked:          # the plain list takes whatever the marked list left over
            want[False] = ES_TARGET - len(picked[True])
        for index, tier in enumerate(tiers):
            if not marked and index == 2:
                continue        # unaccented rarer cognates are too often archaic or learned
            for w in tier:
                key = fold_es(w)
                if accented(w) != marked or key in seen or len(picked[marked]) >= want[marked]:
                    continue
                family = ("ción" if w.endswith(("ción", "sión", "xión"))
                          else "ico" if w.endswith(("ico", "ica")) else "")
                if family:
                    if index > 0 and capped[family] >= caps[family]:
                        continue
                    capped[family] += 1
                seen.add(key)
                picked[marked].append(w)
    return sorted(picked[False]), sorted(picked[True]), why


# --------------------------------------------------------------------------------------------
# Packs 5-7: base-german, base-french, base-portuguese (free, like base-english)
#
# The words come from the Debian word list of the language (every shipped word is in it); which
# ones a player knows is read off FreeDict's English->X dictionary:
#   1. English headwords: every SCOWL size <= 35 word that passes the English rules of
#      base-english (not an inflection, abbreviation, mainly a name or blocklisted).
#   2. Their translations, in order (<...>, [...], (...), {...} removed; split on , and ;): the
#      single words of letters only that the Debian list has, as written (a capitalised French
#      or Portuguese entry is a proper noun and dropped; German nouns are capitalised and
#      lowercased here). German entries: only the first translation of each entry, no entry
#      tagged as regional, dated, rare, slang or specialist (DE_SKIP_TAGS) or carrying a usage
#      note, and no entry for an inflected form (no part-of-speech tag and a "see:" line).
#   3. Rank: the lowest SCOWL size of an English headword the word translates, then the
#      translation's position in that entry, then stable_order. eng-deu lists ~50 senses of a
#      common word, most of them technical, so German also uses the number of usage examples of
#      the entry: an entry with examples is a main sense and ranks as if its English word were
#      one SCOWL size more common (DE_NO_EXAMPLE_PENALTY).
#   4. Rules: 4-12 letters of the language's alphabet, not blocklisted (patterns per language
#      and also every translation of a blocklisted English word), not in the drop list (read
#      through by hand), no German inflected form whose shorter form is a candidate (plurals,
#      conjugations, participles in -end, ge-...-t/-en, diminutives in -chen/-lein), no two
#      words the game cannot tell apart (fold_word), the first 3,000 in rank order.
# --------------------------------------------------------------------------------------------

NGERMAN = Path("/usr/share/dict/ngerman")
FRENCH = Path("/usr/share/dict/french")
BRAZILIAN = Path("/usr/share/dict/brazilian")
FREEDICT = Path("/usr/share/dictd")
FOREIGN_TARGET = 3000
DAILY_TARGET = 800          # >= 730: two years of daily words
DAILY_LENGTHS = (5, 9)

WNGERMAN_LICENSE = (
    "GNU General Public License, version 2 or later. Words from igerman98 (Debian package "
    "wngerman, /usr/share/dict/ngerman), whose copyright file states: \"Copyright: 1999-2016 "
    "Björn Jacke <bjoern@j3e.de>\" and \"License: GPL-2+ This program is free software; you can "
    "redistribute it and/or modify it under the terms of the GNU General Public License version "
    "2 or 3 as published by the Free Software Foundation. This program is distributed in the "
    "hope that it will be useful, but WITHOUT ANY WARRANTY; without even the implied warranty "
    "of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public License "
    "for more details.\" Full notice: Packs/licenses/wngerman.txt."
)
WFRENCH_LICENSE = (
    "GNU General Public License, version 2 or later. Words from wfrench (Debian package "
    "wfrench, /usr/share/dict/french), whose copyright file states: \"Copyright: 1989 Paul "
    "Leyland <pcl@ox.ac.uk>\" and \"License: GPL-2+ This package is free software; you can "
    "redistribute it and/or modify it under the terms of the GNU General Public License as "
    "published by the Free Software Foundation; either version 2 of the License, or (at your "
    "option) any later version. This package is distributed in the hope that it will be "
    "useful, but WITHOUT ANY WARRANTY; without even the implied warranty of MERCHANTABILITY or "
    "FITNESS FOR A PARTICULAR PURPOSE. See the GNU General Public License for more details.\" "
    "Full notice: Packs/licenses/wfrench.txt."
)
WBRAZILIAN_LICENSE = (
    "GNU General Public License, version 2. Words from br.ispell (Debian package wbrazilian, "
    "/usr/share/dict/brazilian), whose copyright file states: \"Copyright: 1995-2002 Ricardo "
    "Ueda Karpischek <ueda@ime.usp.br> and others\" and \"License: GPL-2 This package is free "
    "software; you can redistribute it and/or modify it under the terms of the GNU General "
    "Public License as published by the Free Software Foundation; version 2 dated June, 1991. "
    "This package is distributed in the hope that it will be useful, but WITHOUT ANY WARRANTY; "
    "without even the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. "
    "See the GNU General Public License for more details.\" Full notice: "
    "Packs/licenses/wbrazilian.txt."
)
FREEDICT_NOTE = (
    " The words were chosen (not copied) with the help of FreeDict's {title} (Debian package "
    "dict-freedict-eng-{code} 2022.04.21), \"Copyright: {holders}\", \"License: {license}\" "
    "(Packs/licenses/freedict-eng-{code}.txt): a word is kept when it translates a common "
    "English word."
)
FOREIGN = {
    # language: folder, product id, BCP 47 tag, display name, list names, daily-list name,
    #           word list, FreeDict code, alphabet, licence, attribution, summary
    "de": {
        "folder": "base-german", "product": "com.hangmanpacks.words.base.de", "tag": "de",
        "name": "Wörter des Alltags", "short": "Kurze Wörter", "long": "Lange Wörter",
        "daily": "Häufige Wörter", "source": NGERMAN, "freedict": "deu",
        "letters": "a-zäöüß", "own": "äöüß", "license": WNGERMAN_LICENSE,
        "attribution": (
            "Words from igerman98 by Björn Jacke (https://www.j3e.de/ispell/igerman98/), as "
            "packaged by Debian (wngerman 20161207). Selection and filtering by Hangman Packs."
            + FREEDICT_NOTE.format(title="English-German dictionary", code="deu",
                                   holders="1995-2022 Frank Richter, 2020-2022 Einhard "
                                           "Leichtfuß", license="GPL-3+")),
        "summary": "{n} deutsche Wörter des Alltags zum Raten, kostenlos.",
    },
    "fr": {
        "folder": "base-french", "product": "com.hangmanpacks.words.base.fr", "tag": "fr",
        "name": "Mots de tous les jours", "short": "Mots courts", "long": "Mots longs",
        "daily": "Mots courants", "source": FRENCH, "freedict": "fra",
        "letters": "a-zàâäçéèêëîïôöùûüÿœæ", "own": "àâäçéèêëîïôöùûüÿœæ",
        "license": WFRENCH_LICENSE,
        "attribution": (
            "Words from the wfrench list by Paul Leyland, as packaged by Debian (wfrench "
            "1.2.7). Selection and filtering by Hangman Packs."
            + FREEDICT_NOTE.format(title="English-French dictionary", code="fra",
                                   holders="2000-2022 FreeDict contributors",
                                   license="GPL-2+")),
        "summary": "{n} mots français de tous les jours à deviner, gratuits.",
    },
    "pt": {
        "folder": "base-portuguese", "product": "com.hangmanpacks.words.base.pt",
        "tag": "pt-BR", "name": "Palavras do dia a dia", "short": "Palavras curtas",
        "long": "Palavras longas", "daily": "Palavras comuns", "source": BRAZILIAN,
        "freedict": "por", "letters": "a-záàâãçéêíóôõúü", "own": "áàâãçéêíóôõúü",
        "license": WBRAZILIAN_LICENSE,
        "attribution": (
            "Words from br.ispell by Ricardo Ueda Karpischek and others, as packaged by Debian "
            "(wbrazilian 3.0~beta4). Selection and filtering by Hangman Packs."
            + FREEDICT_NOTE.format(title="English-Portuguese dictionary", code="por",
                                   holders="2000-2022 FreeDict contributors",
                                   license="GPL-2+")),
        "summary": "{n} palavras do dia a dia em português do Brasil para adivinhar, grátis.",
    },
}

# eng-deu tags of entries left out: regional, dated, rare, colloquial or specialist senses.
DE_SKIP_TAGS = set("""
    veraltet veraltend selten obs. dated rare poet. slang pej. vulg. Ös. Schw. Norddt. Bayr.
    Süddt. Mitteldt. Westdt. Ostdt. Dt. techn. mach. constr. min. textil. biochem. pharm.
    humor. alt archaic euphem. lit. print telco. electr. jur. adm. fin. econ. chem. geol. ling.
    math. phys. naut. aviat. stud. comp. tm ugs. coll. relig. hist. ornith. statist. mil. med.
    anat. astron. meteo.
""".split())
DE_NO_EXAMPLE_PENALTY = 15      # an entry without usage examples ranks one SCOWL size lower

DE_BLOCK_PATTERNS = [
    # profanity and insults
    r"fick", r"scheiß", r"scheiss", r"^arsch", r"fotze", r"^hure", r"^nutte", r"schlampe",
    r"^wichs", r"^piss", r"^kack", r"^furz", r"^kotz", r"^verdammt", r"^verflucht", r"^mist$",
    r"^idiot", r"^depp", r"^trottel", r"^blöd", r"^dumm", r"^doof", r"^schwachsinn",
    r"^schwachkopf", r"^dussel", r"^spast", r"^mongo", r"^krüppel", r"^behindert",
    r"^bastard", r"^miststück", r"^sau$", r"^luder", r"^zicke", r"^weibsbild",
    # slurs
    r"^neger", r"nigger", r"zigeuner", r"schlitzauge", r"^kanake", r"^kanacke", r"^polack",
    r"^itaker", r"^kümmeltürk", r"^schwul", r"^lesb", r"^tunte", r"^schwuchtel", r"^homo",
    r"^mischling", r"^mulatt", r"^eskimo", r"^indianer", r"^jud(e|en)$",
    # sexual terms and anatomy
    r"^sex", r"sexuell", r"^porno", r"^erotik", r"^erotisch", r"^nackt", r"^orgasm",
    r"^sperma", r"^hoden", r"^penis", r"^vagina", r"^scheide$", r"^schwanz", r"^titte",
    r"^busen", r"^brust$", r"^brüste", r"^brustwarze", r"^po$", r"^popo", r"^hintern",
    r"^geil", r"^lust", r"^wollust", r"^prostitu", r"^bordell", r"^puff$", r"^zuhälter",
    r"^dirne", r"^kurtisane", r"^konkubin", r"^mätresse", r"^geliebte", r"^liebhaber",
    r"^ehebruch", r"^inzest", r"^pädophil", r"^pervers", r"^vergewaltig", r"^missbrauch",
    r"^onanie", r"^masturb", r"^kondom", r"^menstru", r"^abtreibung", r"^unterhose",
    r"^schlüpfer", r"^erektion", r"^verführ", r"^jungfrau", r"^jungfräulich", r"^ständer$",
    r"^after$", r"^darm", r"^blase$", r"^harn", r"^urin", r"^kot$", r"^stuhlgang",
    # drugs, alcohol, tobacco
    r"^droge", r"^rauschgift", r"^kokain", r"^heroin", r"^haschisch", r"^cannabis",
    r"^marihuana", r"^opium", r"^betrunken", r"^besoffen", r"^suff", r"^säufer", r"^rausch$",
    r"^trunk", r"^schnaps", r"^alkohol", r"^bier", r"^wein$", r"^weine$", r"^wodka",
    r"^whisky", r"^likör", r"^sekt$", r"^branntwein", r"^kneipe", r"^zigarette", r"^zigarre",
    r"^tabak", r"^nikotin", r"^rauchen", r"^raucher", r"^dealer",
    # grim, violent or hateful topics
    r"^selbstmord", r"^suizid", r"mord", r"mörder", r"^folter", r"terror", r"^massaker",
    r"^leiche", r"^kadaver", r"^hinricht", r"^galgen", r"^henker", r"^nazi", r"^hakenkreuz",
    r"^rassis", r"^töten", r"^tötung", r"^killer", r"^entführ", r"^geisel", r"^sklav",
    r"^hölle", r"^teufel", r"^satan", r"^dämon", r"^verdamm", r"^gemetzel", r"^schlachten$",
    r"^erschieß", r"^erhäng", r"^ertränk", r"^vernicht", r"^völkermord", r"^pogrom",
]
FR_BLOCK_PATTERNS = [
    # profanity and insults
    r"^put(e|ain)", r"^merde", r"^con$", r"^conne", r"^connard", r"^connasse", r"^salaud",
    r"^salop", r"^encul", r"^foutre", r"^fout(u|ue)$", r"^bordel", r"^chier", r"^chiott",
    r"^pisse", r"^pisser", r"^péter", r"^pet$", r"^garce", r"^pouffiasse", r"^grognasse",
    r"^crétin", r"^idiot", r"^imbécile", r"^débile", r"^abruti", r"^stupide", r"^bête$",
    r"^bâtard", r"^cocu", r"^damn", r"^maudi", r"^crapule", r"^canaille",
    # slurs
    r"^pédé", r"^gouine", r"^tapette", r"^tante$", r"^nègre", r"^négro", r"^négresse",
    r"^bougnoul", r"^youpin", r"^bicot", r"^bamboula", r"^gitan", r"^romanichel",
    r"^mongol", r"^métis", r"^mulâtre", r"^sauvage$", r"^homosex", r"^lesbien",
    # sexual terms and anatomy
    r"^sex", r"^sexu", r"^porno", r"^érotique", r"^nu$", r"^nue$", r"^nus$", r"^nues$",
    r"^nudit", r"^orgasm", r"^sperme", r"^semence", r"^pénis", r"^vagin", r"^testicul",
    r"^bite$", r"^chatte$", r"^couille", r"^cul$", r"^nichon", r"^seins?$", r"^mamelle",
    r"^téton", r"^baiser$", r"^baise", r"^branle", r"^prostitu", r"^putain", r"^catin",
    r"^maquereau", r"^proxénète", r"^lubri", r"^luxure", r"^lascif", r"^obscène",
    r"^maîtresse", r"^amant", r"^adult[eè]r", r"^inceste", r"^pédophil", r"^pervers",
    r"^viol$", r"^viols$", r"^viol(er|eur|ée?)$", r"^préservatif", r"^menstru",
    r"^avortement", r"^avorter", r"^fesse", r"^derrière$", r"^anus$", r"^anal$",
    r"^érection", r"^pubis", r"^pubien", r"^culotte", r"^slip$", r"^soutien", r"^vierge",
    r"^virginit", r"^séduc", r"^séduire", r"^harem", r"^eunuque", r"^castr", r"^urine",
    r"^excrément", r"^lavement",
    # drugs, alcohol, tobacco
    r"^drogu", r"^cocaïne", r"^héroïne$", r"^haschi", r"^cannabis", r"^marijuana", r"^opium",
    r"^stupéfiant", r"^narcoti", r"^ivre", r"^ivress", r"^ivrogne", r"^soûl", r"^saoul",
    r"^alcool", r"^bière", r"^vin$", r"^vins$", r"^vinasse", r"^whisky", r"^vodka",
    r"^liqueur", r"^eau-de-vie", r"^cognac", r"^rhum", r"^cigarette", r"^cigare", r"^tabac",
    r"^nicotine", r"^fumer", r"^fumeur", r"^cuite", r"^pinard", r"^bistro", r"^cabaret",
    # grim, violent or hateful topics
    r"^suicid", r"^meurtr", r"^assassin", r"^tortur", r"^terroris", r"^génocide",
    r"^massacr", r"^cadavre", r"^charogne", r"^nazi", r"^racis", r"^esclav", r"^bourreau",
    r"^potence", r"^gibet", r"^pendaison", r"^pendre$", r"^diable", r"^satan", r"^enfer",
    r"^démon", r"^tuer$", r"^tueur", r"^égorg", r"^décapit", r"^exécution", r"^otage",
    r"^enlèvement", r"^kidnap", r"^carnage", r"^tuerie", r"^abattoir", r"^pogrom",
]
PT_BLOCK_PATTERNS = [
    # profanity and insults
    r"^puta", r"^puto$", r"^merda", r"^caralh", r"^porra", r"^fod", r"^cu$", r"^bunda",
    r"^cacete", r"^bosta", r"^cagar", r"^cagão", r"^mijar", r"^mijo", r"^peid", r"^droga$",
    r"^idiota", r"^imbecil", r"^cretin", r"^retardad", r"^débil", r"^estúpid", r"^otári",
    r"^babaca", r"^bastard", r"^corno", r"^canalha", r"^desgraçad", r"^maldi", r"^danad",
    r"^safad", r"^vagabund", r"^piranha$",
    # slurs
    r"^viado", r"^veado", r"^bicha$", r"^sapatão", r"^boiola", r"^negr", r"^nego$",
    r"^crioul", r"^mulat", r"^ciga?n", r"^mongol", r"^índio$", r"^bugre", r"^macumb",
    r"^homossex", r"^lésbic", r"^judiar", r"^judiaria",
    # sexual terms and anatomy
    r"^sex", r"^porn", r"^erótic", r"^nu$", r"^nua$", r"^nus$", r"^nuas$", r"^nudez",
    r"^pelad[oa]s?$", r"^orgasm", r"^esperma", r"^sêmen", r"^vagina", r"^pênis",
    r"^testícul", r"^buceta", r"^boceta", r"^xoxota", r"^piroca", r"^rola$", r"^pica$",
    r"^peitos?$", r"^seios?$", r"^mamilo", r"^teta", r"^nádega", r"^traseiro", r"^ânus",
    r"^anal$", r"^prostitu", r"^bordel", r"^prostíbul", r"^meretriz", r"^rameira",
    r"^cafetã", r"^cafetin", r"^rufião", r"^gigolô", r"^amante", r"^adulté?r",
    r"^incest", r"^pedófil", r"^pervers", r"^estupr", r"^violentar", r"^camisinha",
    r"^preservativo", r"^menstru", r"^abort", r"^trepar", r"^transar", r"^tesão",
    r"^tesud", r"^gostos[ao]$", r"^lux[úu]ria", r"^lascív", r"^obscen", r"^devass",
    r"^libertin", r"^concubin", r"^virgem", r"^virgindade", r"^sedu[zç]", r"^calcinha",
    r"^cueca", r"^sutiã", r"^ereção", r"^púbi", r"^castr", r"^eunuco", r"^urina",
    r"^excrement", r"^fezes", r"^cocô", r"^xixi",
    # drugs, alcohol, tobacco
    r"^drog[ao]", r"^cocaína", r"^heroína$", r"^maconh", r"^haxixe", r"^ópio",
    r"^entorpecent", r"^narcótic", r"^bêbad", r"^embriag", r"^ébri", r"^porre",
    r"^cachaça", r"^pinga$", r"^álcool", r"^alcoól", r"^cerveja", r"^vinho", r"^uísque",
    r"^vodca", r"^licor", r"^aguardente", r"^conhaque", r"^cigarr", r"^charuto", r"^tabaco",
    r"^fumo$", r"^fumar", r"^fumante", r"^nicotina", r"^boteco", r"^botequim", r"^taverna",
    # grim, violent or hateful topics
    r"^suic[ií]d", r"^assassin", r"^homic[ií]d", r"^tortur", r"^terroris", r"^genoc[ií]d",
    r"^massacr", r"^chacina", r"^cadáver", r"^defunto", r"^nazis", r"^racis", r"^escrav",
    r"^carrasco", r"^forca$", r"^enforca", r"^diab", r"^demôni", r"^satan", r"^inferno",
    r"^matar$", r"^matador", r"^matança", r"^degol", r"^decapit", r"^sequestr", r"^refém",
    r"^execução", r"^carnificina", r"^linchar", r"^matadouro",
]
FOREIGN_BLOCK = {lang: re.compile("|".join(f"(?:{p})" for p in patterns)) for lang, patterns in
                 (("de", DE_BLOCK_PATTERNS), ("fr", FR_BLOCK_PATTERNS),
                  ("pt", PT_BLOCK_PATTERNS))}

# Read through by hand (random samples of each pack): archaic, regional, technical, learned or
# odd words, fragments and forms that are not a dictionary word on their own.
DE_DROP = set("""
    wüstenei gelass gedeihlich habitus konzertant jedweder stöpseln verkitten weißblech vize
    keyboard manual steinigen ausklammern pater lüftchen beseelen traumbild ehrbar ruckelfrei
    werksnorm unverstellt sodann gros info weib analysator regsam zulänglich nochmalig
    reverenz fristlos betretbar
""".split())
FR_DROP = set("""
    abois aboucher accouplement accoupler agglutiner emmailloter cannelure badine cubain
    tank speaker abouler artificieux bécane
""".split())
PT_DROP = set("""
    aferroar chusma azular punção conquanto porventura amiúde obreiro bucha flavo vetusto
    redil gentio cepo laxante auspício contextura amontoamento louvado seringa tramóia
""".split())
FOREIGN_DROP = {"de": DE_DROP, "fr": FR_DROP, "pt": PT_DROP}


def fold_word(word: str, language: str) -> str:
    """The game's comparison key of a word (Sources/Formats/LetterFolding): lowercase, accents
    and cedilla removed, except German ä ö ü ß and Spanish ñ, which are letters of their own."""
    keep = {"de": "äöüß", "es": "ñ"}.get(language.split("-")[0], "")
    out = []
    for c in word.lower():
        if c in keep:
            out.append(c)
        else:
            out.append("".join(d for d in unicodedata.normalize("NFD", c)
                               if unicodedata.category(d) != "Mn"))
    return unicodedata.normalize("NFC", "".join(out))


def blocked_foreign(word: str, language: str) -> bool:
    pattern = FOREIGN_BLOCK[language]
    return bool(pattern.search(word) or pattern.search(fold_word(word, language)))


_DICTD_DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _dictd_number(text: str) -> int:
    number = 0
    for c in text:
        number = number * 64 + _DICTD_DIGITS.index(c)
    return number


def read_freedict(code: str) -> list[tuple[str, str]]:
    """Every (headword, entry text) of FreeDict's English-<code> dictionary, in index order.
    The .dict.dz file is dictzip, which gzip reads whole; the index gives each entry's offset
    and length in dictd's base-64 digits."""
    data = gzip.decompress((FREEDICT / f"freedict-eng-{code}.dict.dz").read_bytes())
    entries = []
    for line in (FREEDICT / f"freedict-eng-{code}.index").read_text(encoding="utf-8").splitlines():
        head, offset, length = line.split("\t")[:3]
        if head.startswith("00-database") or head.startswith("00database"):
            continue
        start = _dictd_number(offset)
        entries.append((head, data[start:start + _dictd_number(length)].decode("utf-8")))
    return entries


def parse_translations(text: str) -> tuple[list[str], set[str], int, bool]:
    """An entry's translations in order, its [tags], its number of usage examples, and whether
    it looks like the entry of an inflected form (eng-deu: no <part of speech> and a see: line).
    Lines starting with a space are examples, notes and cross-references; "Note:" lines mark a
    specialised sense (returned as the tag "note")."""
    lines = text.split("\n")
    head = lines[0]
    translations: list[str] = []
    tags: set[str] = set()
    examples = 0
    has_see = False
    has_pos = "<" in head
    for line in lines[1:]:
        if not line:
            continue
        if line[0].isspace():
            stripped = line.strip()
            if stripped.startswith('"'):
                examples += 1
            elif stripped.startswith("Note:"):
                tags.add("note")
            elif stripped.startswith("see:"):
                has_see = True
            continue
        tags.update(t.strip() for t in re.findall(r"\[([^\]]*)\]", line))
        has_pos = has_pos or "<" in line
        line = re.sub(r"^\d+\.\s*", "", line)
        for pattern in (r"<[^>]*>", r"\[[^\]]*\]", r"\([^)]*\)", r"\{[^}]*\}"):
            line = re.sub(pattern, "", line)
        for part in re.split(r"[,;]", line):
            part = unicodedata.normalize("NFC", part.strip())
            if part:
                translations.append(part)
    return translations, tags, examples, (has_see and not has_pos)


def load_word_list(path: Path) -> set[str]:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("iso-8859-1")
    return {unicodedata.normalize("NFC", w.strip()) for w in text.splitlines() if w.strip()}


def english_headwords(level_of: dict[str, int], abbreviations: set[str],
                      names: dict[str, int]) -> dict[str, int]:
    """Everyday English words (SCOWL <= 35, base-english's rules) and their SCOWL size."""
    return {w: level for w, level in level_of.items()
            if level <= 35 and w not in abbreviations and names.get(w, 99) > level
            and not blocked_en(w) and not is_inflection(w, level_of)}


def german_inflected(word: str, candidates: set[str], lower_list: set[str]) -> bool:
    """True for a German form whose shorter form is also a candidate (Hunde/Hund,
    schönen/schön, gehst/gehen), a participle in -end (laufend), ge-...-t/-en (gemacht,
    gestoßen) or in -t of a verb in -n (verriegelt), or a diminutive (Häuschen, Büchlein)."""
    for ending in ("en", "er", "es", "em", "e", "n", "s", "t", "te", "st", "est", "ten",
                   "ste", "end"):
        if word.endswith(ending) and len(word) - len(ending) >= 3 \
                and word[: -len(ending)] in candidates:
            return True
    if word.endswith("st") and word[:-2] + "en" in candidates:
        return True
    if word.endswith("end") and word[:-1] in lower_list:
        return True
    if word.startswith("ge") and word.endswith(("t", "en")) and len(word) >= 7 \
            and word[2:] in lower_list:
        return True
    if word.endswith("t") and word[:-1] not in lower_list \
            and (word[:-1] + "en" in lower_list or word[:-1] + "n" in lower_list):
        return True
    for suffix in ("chen", "lein"):
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stem = word[: -len(suffix)]
            plain = stem.replace("ä", "a").replace("ö", "o").replace("ü", "u").replace(
                "äu", "au")
            if {stem, plain, stem + "e", plain + "e"} & candidates:
                return True
    return False


# French and Portuguese plural and feminine endings: (ending, replacement) such that a word
# ending in `ending` is dropped when the word with `replacement` instead is also a candidate.
ROMANCE_FORMS = {
    "fr": [("s", ""), ("x", ""), ("e", ""), ("es", ""), ("elle", "el"), ("enne", "en"),
           ("euse", "eur"), ("ive", "if"), ("ère", "er"), ("aux", "al"), ("trice", "teur")],
    "pt": [("s", ""), ("es", ""), ("a", "o"), ("as", "o"), ("os", "o"), ("ões", "ão"),
           ("ãs", "ão"), ("ães", "ão"), ("is", "l"), ("ora", "or")],
}


def romance_inflected(word: str, candidates: set[str], language: str) -> bool:
    """True for a French or Portuguese plural or feminine whose base form is a candidate
    (quelles/quel, assurée/assuré, celibatária/celibatário)."""
    return any(word.endswith(ending) and len(word) - len(ending) >= 3
               and word[: len(word) - len(ending)] + base in candidates
               for ending, base in ROMANCE_FORMS[language])


def make_foreign(language: str, english: dict[str, int], blocked_heads: set[str],
                 entries: list[tuple[str, str]]) -> tuple[list[str], list[str], list[str],
                                                          dict[str, tuple]]:
    """One free base pack: (short, long, daily, rank of every kept word)."""
    spec = FOREIGN[language]
    source = load_word_list(spec["source"])
    lower_list = {w for w in source if w == w.lower()}
    alphabet = re.compile(f"[{spec['letters']}]+")
    german = language == "de"
    best: dict[str, tuple] = {}
    banned: set[str] = set()         # translations of blocklisted English words
    for head, text in entries:
        blocked_head = head in blocked_heads
        if head not in english and not blocked_head:
            continue
        translations, tags, examples, inflected = parse_translations(text)
        for position, word in enumerate(translations):
            low = word.lower()
            if blocked_head:
                banned.add(low)
                continue
            if german and (position > 0 or inflected or tags & (DE_SKIP_TAGS | {"note"})):
                continue
            if word not in source or not alphabet.fullmatch(low):
                continue
            if german:
                if word[1:] != low[1:]:         # abbreviations, CamelCase
                    continue
            elif word != low:                   # a proper noun
                continue
            level = english[head]
            if german:
                key = (level + (0 if examples else DE_NO_EXAMPLE_PENALTY), -min(examples, 3), 0)
            else:
                key = (level, position, 0)
            if low not in best or key < best[low][0]:
                best[low] = (key, head)
    candidates = set(best)
    if german:
        candidates = {w for w in candidates
                      if not german_inflected(w, candidates - {w}, lower_list)}
    else:
        candidates = {w for w in candidates
                      if not romance_inflected(w, candidates - {w}, language)}
    drop = FOREIGN_DROP[language]
    pool = [w for w in candidates if 4 <= len(w) <= 12 and w not in banned and w not in drop
            and not blocked_foreign(w, language)]
    tiebreak = {w: i for i, w in enumerate(stable_order(sorted(pool), f"base-{language}"))}
    ranked = sorted(pool, key=lambda w: (best[w][0], tiebreak[w]))
    chosen: list[str] = []
    seen: set[str] = set()
    for w in ranked:
        key = fold_word(w, language)
        if key in seen:
            continue
        seen.add(key)
        chosen.append(w)
        if len(chosen) == FOREIGN_TARGET:
            break
    daily = sorted([w for w in chosen if DAILY_LENGTHS[0] <= len(w) <= DAILY_LENGTHS[1]]
                   [:DAILY_TARGET])
    ranks = {w: best[w] for w in chosen}
    short = sorted(w for w in chosen if len(w) <= 6)
    long_ = sorted(w for w in chosen if len(w) >= 7)
    return short, long_, daily, ranks


# --------------------------------------------------------------------------------------------
# WordNet clues for base-english
#
# A word's clue is the gloss of its most frequent sense in WordNet 3.0 (wordnet-base):
#   1. index.<pos> lists each lemma's synsets most frequent first, with a tagsense_cnt; the part
#      of speech with the highest count goes first (ties: noun, verb, adjective, adverb), then
#      the others in the same order.
#   2. The gloss (after "| " in data.<pos>) loses its examples: only the definition before the
#      first ";" is kept, and a leading "(domain)" note is removed.
#   3. The clue must not give the answer away: none of its words is the answer, one of the
#      answer's forms (regular inflections, WordNet's exception lists) or, for an answer of 5+
#      letters, starts with its first 4 letters; the answer is not inside the clue at all; and
#      no word of the clue is blocklisted. Otherwise the next sense is tried.
#   4. At most CLUE_MAX characters: a longer definition is cut at its last "," or ";" before
#      the limit when what remains has 3+ words, otherwise the next sense is tried.
#   5. First letter capitalised, no trailing period. No sense left: the word has no clue.
# --------------------------------------------------------------------------------------------

WORDNET = Path("/usr/share/wordnet")
WORDNET_POS = ("noun", "verb", "adj", "adv")       # the order that breaks ties
CLUE_MAX = 70
WORDNET_LICENSE = (
    "Clues from WordNet 3.0 (Debian package wordnet-base), under this licence: \"WordNet "
    "Release 3.0 This software and database is being provided to you, the LICENSEE, by "
    "Princeton University under the following license. By obtaining, using and/or copying "
    "this software and database, you agree that you have read, understood, and will comply "
    "with these terms and conditions.: Permission to use, copy, modify and distribute this "
    "software and database and its documentation for any purpose and without fee or royalty "
    "is hereby granted, provided that you agree to comply with the following copyright notice "
    "and statements, including the disclaimer, and that the same appear on ALL copies of the "
    "software, database and documentation, including modifications that you make for internal "
    "use or for distribution. WordNet 3.0 Copyright 2006 by Princeton University. All rights "
    "reserved. THIS SOFTWARE AND DATABASE IS PROVIDED \"AS IS\" AND PRINCETON UNIVERSITY MAKES "
    "NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF EXAMPLE, BUT NOT "
    "LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES OF MERCHANT- "
    "ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE LICENSED SOFTWARE, "
    "DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS, COPYRIGHTS, "
    "TRADEMARKS OR OTHER RIGHTS. The name of Princeton University or Princeton may not be used "
    "in advertising or publicity pertaining to distribution of the software and/or database. "
    "Title to copyright in this software, database and any associated documentation shall at "
    "all times remain with Princeton University and LICENSEE agrees to preserve same.\" "
    "Full notice: Packs/licenses/wordnet.txt."
)
WORDNET_ATTRIBUTION = (
    " Clues: the definitions of WordNet 3.0 (Princeton University, "
    "https://wordnet.princeton.edu/), shortened."
)


class WordNet:
    """The parts of WordNet 3.0 the clues need: each lemma's synsets per part of speech (most
    frequent first) with its tagsense_cnt, each synset's gloss, and the exception lists."""

    def __init__(self, folder: Path = WORDNET):
        self.senses: dict[str, dict[str, tuple[int, list[int]]]] = {}
        self.data: dict[str, bytes] = {}
        self.forms: dict[str, set[str]] = collections.defaultdict(set)
        for pos in WORDNET_POS:
            self.data[pos] = (folder / f"data.{pos}").read_bytes()
            for line in (folder / f"index.{pos}").read_text(encoding="utf-8").splitlines():
                if line.startswith(" "):
                    continue                # the licence at the top of the file
                fields = line.split()
                lemma, synset_cnt, p_cnt = fields[0], int(fields[2]), int(fields[3])
                tagsense_cnt = int(fields[5 + p_cnt])
                offsets = [int(x) for x in fields[6 + p_cnt: 6 + p_cnt + synset_cnt]]
                self.senses.setdefault(lemma, {})[pos] = (tagsense_cnt, offsets)
            for line in (folder / f"{pos}.exc").read_text(encoding="utf-8").splitlines():
                inflected, *bases = line.split()
                for base in bases:
                    self.forms[base].add(inflected)

    def gloss(self, pos: str, offset: int) -> str:
        data = self.data[pos]
        line = data[offset: data.index(b"\n", offset)].decode("utf-8")
        return line.partition("| ")[2].strip()

    def glosses(self, word: str) -> list[str]:
        """The word's glosses, most frequent part of speech and sense first."""
        by_pos = self.senses.get(word, {})
        order = sorted(by_pos, key=lambda pos: (-by_pos[pos][0], WORDNET_POS.index(pos)))
        return [self.gloss(pos, offset) for pos in order for offset in by_pos[pos][1]]


def _clue_words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


def clean_clue(gloss: str, word: str, forms: set[str]) -> str | None:
    """The clue made from one gloss, or None when it gives the answer away or does not fit."""
    text = gloss.split(";")[0].strip()
    text = re.sub(r"^\([^)]*\)\s*", "", text).strip()
    text = text.rstrip(".").strip()
    if len(text) > CLUE_MAX:
        cut = max(text.rfind(",", 0, CLUE_MAX), text.rfind(";", 0, CLUE_MAX))
        if cut <= 0 or len(text[:cut].split()) < 3:
            return None
        text = text[:cut].strip()
    if not text or "(" in text and ")" not in text or '"' in text or "`" in text:
        return None
    tokens = _clue_words(text)
    if len(tokens) < 2 or word in text.lower():
        return None
    for token in tokens:
        if token in forms or (len(word) >= 5 and token.startswith(word[:4])) \
                or blocked_en(token):
            return None
    return text[0].upper() + text[1:]


def make_clues(words: list[str], wordnet: WordNet) -> dict[str, str]:
    clues: dict[str, str] = {}
    for word in words:
        forms = _inflections(word) | wordnet.forms.get(word, set()) | {word}
        for gloss in wordnet.glosses(word):
            clue = clean_clue(gloss, word, forms)
            if clue:
                clues[word] = clue
                break
    return clues


# --------------------------------------------------------------------------------------------
# Pack 2: ios-words ("iOS Words") - written by hand
# --------------------------------------------------------------------------------------------

IOS_WORDS: list[tuple[str, str]] = [
    # tools and platforms
    ("xcode", "Apple's IDE for writing, building and debugging apps"),
    ("swift", "Apple's type-safe programming language, introduced in 2014"),
    ("objective c", "Smalltalk-style messaging added to C; Swift's predecessor"),
    ("swiftui", "Declarative UI framework where views are structs described in code"),
    ("uikit", "The classic imperative framework for iPhone and iPad interfaces"),
    ("appkit", "The framework for Mac windows, menus and controls"),
    ("cocoa", "Apple's native Mac application environment; also a hot drink"),
    ("cocoa touch", "The layer of frameworks behind iPhone apps, including UIKit"),
    ("foundation", "Base framework with strings, dates, collections and networking"),
    ("simulator", "Runs iPhone and iPad builds in a window on your Mac"),
    ("instruments", "Xcode's profiling tool for time, allocations and leaks"),
    ("playground", "Interactive Swift file that shows results as you type"),
    ("interface builder", "Xcode's visual editor for laying out screens"),
    ("testflight", "Apple's service for sending beta builds to invited users"),
    ("app store", "The digital marketplace where iPhone users download software"),
    ("watchos", "Operating system that runs on Apple's wrist wearable"),
    ("ipados", "Operating system for Apple's tablets since 2019"),
    ("macos", "Operating system of Apple's desktops and laptops"),
    ("tvos", "Operating system of the Apple TV set-top box"),
    ("visionos", "Operating system of Apple's spatial computing headset"),
    ("iphone", "Apple's smartphone, first shown in 2007"),
    ("ipad", "Apple's tablet, first released in 2010"),
    ("cocoapods", "Ruby-based dependency manager driven by a Podfile"),
    ("carthage",
     "Decentralized dependency manager that builds frameworks but leaves your project alone"),
    ("swift package manager",
     "Tool that resolves dependencies listed in a manifest and builds them"),
    ("debugger", "Tool for pausing code and inspecting variables, such as LLDB"),
    ("compiler", "Turns source code into machine code"),
    # interface
    ("storyboard", "Interface Builder file holding several screens and the segues between them"),
    ("view controller", "Manages a screen of content in UIKit"),
    ("navigation bar", "Strip at the top of the screen with a title and a back button"),
    ("navigation controller", "UIKit container that pushes and pops screens like a stack"),
    ("tab bar", "Row of buttons at the bottom for switching between top-level sections"),
    ("table view", "Scrolling single-column list of rows in UIKit"),
    ("collection view", "Shows items in a customizable layout such as a grid"),
    ("stack view", "Lines up its children in a row or column automatically"),
    ("scroll view", "Lets users pan and zoom content larger than the screen"),
    ("image view", "UIKit class that displays a picture"),
    ("text field", "Single-line editable input control"),
    ("label", "Read-only text in the interface"),
    ("button", "Control that performs an action when tapped"),
    ("slider", "Control for picking a value from a continuous range by dragging a thumb"),
    ("stepper", "Control with plus and minus buttons for nudging a number"),
    ("segmented control", "Horizontal set of mutually exclusive options"),
    ("activity indicator", "Spinning wheel shown while something loads"),
    ("progress view", "Bar that fills up as a task completes"),
    ("alert", "Modal message box with a title and one or more buttons"),
    ("popover", "Floating panel with an arrow pointing at its source, common on iPad"),
    ("split view", "iPad layout with a list beside a detail pane"),
    ("window", "The top-level container that hosts an app's views"),
    ("segue", "Transition between two scenes in a storyboard"),
    ("outlet", "Property wired to a view in Interface Builder"),
    ("auto layout", "Constraint-based system that sizes and positions views"),
    ("constraint", "A rule such as: this edge sits 20 points from its superview"),
    ("safe area", "Part of the screen not covered by the notch or home indicator"),
    ("launch screen", "Static placeholder shown while an app starts up"),
    ("asset catalog", "Xcode folder of images, colors and icons in every size"),
    ("gesture recognizer", "Detects taps, pinches, swipes and pans on a view"),
    ("first responder", "The object currently receiving keyboard input"),
    ("responder chain", "Path an unhandled event follows from view to controller to window"),
    ("dark mode", "System-wide appearance with light text on black backgrounds"),
    ("dynamic type", "Lets users choose their preferred text size"),
    ("accessibility", "Making apps usable by everyone, for example with VoiceOver"),
    ("voiceover", "Screen reader built into every iPhone"),
    ("localization", "Translating an app's text and formats for other languages and regions"),
    ("human interface guidelines", "Apple's design rulebook for its platforms"),
    ("haptics", "Taps and vibrations produced by the Taptic Engine"),
    ("dynamic island", "Pill-shaped cutout on newer iPhones that shows live activities"),
    ("home screen", "Grid of icons you see after unlocking"),
    ("control center", "Panel of quick toggles pulled down from the top-right corner"),
    ("notch", "Cutout at the top of the screen housing the front camera"),
    ("retina display", "Apple's name for a screen so dense you cannot see the pixels"),
    ("share sheet", "System panel for sending content to other apps and people"),
    ("pull to refresh", "Drag a list down to reload it"),
    ("widget", "Glanceable view of timely content placed on the Home Screen"),
    ("live activity", "Real-time status on the Lock Screen, like a food order tracker"),
    ("spotlight", "System-wide search opened by swiping down on the Home Screen"),
    # SwiftUI
    ("binding", "Two-way connection to a value owned elsewhere, written with a dollar sign"),
    ("observable", "Macro that lets SwiftUI track changes to a class's properties"),
    ("property wrapper", "Type such as @State that adds behavior around a stored value"),
    ("navigation stack", "SwiftUI container that pushes destinations onto a path"),
    ("preview", "Xcode canvas that renders SwiftUI code live as you edit"),
    ("result builder", "Language feature that powers SwiftUI's declarative syntax"),
    ("swiftdata", "Macro-based persistence framework, a modern alternative to Core Data"),
    ("combine", "Framework for processing values over time with publishers and subscribers"),
    ("publisher", "In Combine, a type that emits a sequence of values over time"),
    # the language
    ("delegate", "Object that acts on behalf of, or in coordination with, another object"),
    ("protocol", "A blueprint of methods and properties that a type can adopt"),
    ("closure", "Self-contained block of code that captures values from its context"),
    ("trailing closure", "Final function argument written after the parentheses"),
    ("optional", "A type that holds either a value or nil"),
    ("optional chaining", "Calling through a value that might be nil with a question mark"),
    ("force unwrap", "Using an exclamation mark to get a value out, crashing if it is nil"),
    ("generics", "Code that works with any type, using placeholders like T"),
    ("extension", "Adds new methods to an existing type, even one you do not own"),
    ("enumeration", "Type with a fixed set of cases, declared with enum"),
    ("structure", "Value type declared with the struct keyword"),
    ("class", "Reference type that supports inheritance"),
    ("inheritance", "A subclass taking on its superclass's properties and methods"),
    ("initializer", "Special method, written init, that sets up a new instance"),
    ("deinitializer", "Code that runs just before a class instance is freed"),
    ("computed property", "Value calculated by a getter each time it is read"),
    ("lazy", "Stored property whose initial value waits until first use"),
    ("guard", "Statement that exits early unless a condition holds"),
    ("defer", "Block that runs when the current scope exits"),
    ("tuple", "Group of values such as (x, y) without a named type"),
    ("subscript", "Shortcut for reading elements with square brackets"),
    ("typealias", "Keyword that gives an existing type another name"),
    ("access control", "The private, fileprivate, internal, public and open levels"),
    ("module", "Unit of code distribution, such as a framework, brought in with import"),
    ("framework", "Bundle of reusable code and resources, like UIKit or Foundation"),
    ("value type", "Copied, not shared, when assigned: structs and enums work this way"),
    ("reference type", "Shared, not copied, when assigned: every class works this way"),
    ("copy on write", "Optimization that shares storage until something mutates it"),
    ("type inference", "The compiler working out a variable's kind from its initial value"),
    ("string interpolation", "Inserting values into text with a backslash and parentheses"),
    ("key path", "Reference to a property, written with a backslash like \\Person.name"),
    ("macro", "Code that generates code at compile time, used with # or @"),
    ("error handling", "Using throw, try and catch when something can fail"),
    ("associated type", "Placeholder inside a protocol that each conformer fills in"),
    ("codable", "Protocol pair that lets a type convert to and from JSON and other formats"),
    ("singleton", "Class with exactly one shared instance"),
    ("model view controller", "Classic pattern splitting data, display and coordination"),
    ("key value observing", "Cocoa mechanism for being told when a property changes"),
    # concurrency and memory
    ("grand central dispatch", "Apple's library for running work on queues across CPU cores"),
    ("dispatch queue", "FIFO line of work items that GCD runs serially or concurrently"),
    ("operation queue", "Foundation class that schedules work items with dependencies"),
    ("main thread", "The only place where UI updates are allowed"),
    ("run loop", "Event-processing cycle that keeps a thread waiting for input"),
    ("async", "Keyword marking a function that can suspend"),
    ("await", "Keyword that marks a suspension point when calling asynchronous code"),
    ("actor", "Reference type that protects its mutable state from data races"),
    ("task group", "Runs a dynamic number of child jobs and gathers their results"),
    ("sendable", "Marker protocol for values that are safe to pass between concurrency domains"),
    ("automatic reference counting", "Compiler-inserted retain and release that manages memory"),
    ("retain cycle", "Two objects holding strong references to each other so neither is freed"),
    ("weak reference", "Pointer that does not keep its object alive and becomes nil"),
    ("unowned", "Non-retaining reference that is assumed to always have a value"),
    ("memory leak", "Allocated storage that is never freed"),
    ("breakpoint", "Marker that pauses execution at a line of code"),
    ("stack trace", "List of function calls active when something went wrong"),
    ("unit test", "Small automated check of a single function"),
    ("xctest", "Apple's classic testing framework with assertions like XCTAssertEqual"),
    ("assertion", "Check that stops a debug build when a condition is false"),
    # system frameworks and services
    ("core data", "Apple's object graph and persistence framework"),
    ("core location", "Framework for GPS position, heading and geofences"),
    ("core animation", "Layer-based compositing engine behind every smooth transition"),
    ("core graphics", "Quartz 2D drawing API for paths, gradients and images"),
    ("core image", "Framework of GPU filters such as blur and sepia for photos"),
    ("core motion", "Framework for accelerometer, gyroscope and step data"),
    ("core bluetooth", "Framework for talking to low-energy wireless accessories"),
    ("mapkit", "Framework for embedding zoomable street and satellite views with pins"),
    ("healthkit", "Framework for steps, heart rate and workouts stored on the iPhone"),
    ("homekit", "Framework for controlling smart lights, locks and thermostats"),
    ("arkit", "Framework for augmented reality on iPhone and iPad"),
    ("realitykit", "Framework for rendering and simulating 3D content in AR"),
    ("scenekit", "High-level 3D graphics framework with nodes, lights and physics"),
    ("spritekit", "Framework for 2D games with nodes, actions and physics"),
    ("metal", "Apple's low-overhead API for programming the GPU"),
    ("cloudkit", "Framework for syncing records to a user's private and public Apple databases"),
    ("icloud", "Apple's online storage and sync service"),
    ("storekit", "Framework for selling subscriptions and unlocking paid content"),
    ("user defaults", "Simple key-value store for small preferences"),
    ("keychain", "Encrypted store for passwords, keys and certificates"),
    ("notification center", "Broadcasts messages to any registered observer within a process"),
    ("push notification", "Alert sent from a server through APNs to a device"),
    ("background fetch", "Lets a suspended program wake up now and then to download fresh content"),
    ("multitasking", "Running more than one program at once, like Split View on iPad"),
    ("handoff", "Start a task on one device and pick it up on another"),
    ("airdrop", "Wireless sharing of files between nearby Apple devices"),
    ("airplay", "Streaming audio and video to a TV or speaker"),
    ("siri", "Apple's voice assistant"),
    ("shortcuts", "Automation tool that chains actions together"),
    ("game center", "Apple's social network for players, with leaderboards and achievements"),
    ("leaderboard", "Ranking of the top scores"),
    ("universal link", "Web address that opens your program instead of Safari when installed"),
    ("deep link", "URL that opens a specific screen inside a program"),
    ("extension point",
     "Place where the system lets a plug-in such as a keyboard or widget hook in"),
    ("app clip", "Lightweight slice of a bigger program, launched from an NFC tag or QR code"),
    # shipping and selling
    ("sandbox", "Restricted container that limits which files and resources a program can reach"),
    ("entitlement", "Signed key-value right that grants a capability such as iCloud access"),
    ("provisioning profile", "File tying a signing certificate, devices and an app ID together"),
    ("code signing", "Cryptographic seal proving who built a program and that it is unchanged"),
    ("certificate", "Identity issued by Apple that lets you sign your builds"),
    ("bundle identifier", "Reverse-DNS string such as com.example.game that names an app uniquely"),
    ("property list", "Apple's XML or binary format for dictionaries, arrays and strings"),
    ("target", "A product Xcode builds, such as an app or a test bundle"),
    ("scheme", "Xcode setting that says which targets to build, run, test and profile"),
    ("archive", "Release build packaged in Xcode's Organizer for upload"),
    ("ad hoc", "Distribution to a fixed list of registered test devices"),
    ("in app purchase", "Buying extra content, such as word packs, from inside a program"),
    ("consumable", "Product that can be bought again and again, like hints"),
    ("non consumable", "Product bought once and kept forever, like a word pack"),
    ("subscription", "Purchase that renews automatically every period"),
    ("receipt", "Signed record of everything a user has bought"),
    ("restore purchases", "Button that brings back everything a user already owns on a new device"),
    ("crash log", "Report with the stack trace of a terminated program"),
    ("bitcode", "LLVM intermediate code Apple once collected with uploads; deprecated in Xcode 14"),
]


# --------------------------------------------------------------------------------------------
# Themes: theme-robot, theme-zombie (paid) and theme-classic (the built-in drawing, not sold)
#
# A theme folder holds Info.plist (Kind "Theme") and frames.plist: {name, Frames, SmallFrames}.
# Frame k (0-6) is the drawing after k of 6 steps of lives lost (0: nothing lost, 6: lost); the
# game maps any number of lives onto these 7 stages as it does for its stick figure
# (Sources/hangman/Terminal/GameScreen.swift, Gallows.rows). Every frame of a list has the same
# number of lines (Frames: 1-12, SmallFrames: 1-4) and every line the same width (1-20
# columns), printable ASCII only, lines joined by "\n" without a trailing newline. The art is
# original, drawn for this project.
# --------------------------------------------------------------------------------------------

THEME_LICENSE = "Original art drawn for Hangman Packs."
THEME_ATTRIBUTION = "Art by the Hangman Packs team."

ROBOT_FRAMES = [
    # 0: the empty assembly bay
    [r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r" [============] "],
    # 1: antenna
    [r"        o       ",
     r"        |       ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r" [============] "],
    # 2: head with eyes
    [r"        o       ",
     r"    .---|---.   ",
     r"    | O   O |   ",
     r"    |  ===  |   ",
     r"    '--+-+--'   ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r" [============] "],
    # 3: body with its panel
    [r"        o       ",
     r"    .---|---.   ",
     r"    | O   O |   ",
     r"    |  ===  |   ",
     r"    '--+-+--'   ",
     r"     [=====]    ",
     r"     | o o |    ",
     r"     |_____|    ",
     r"                ",
     r"                ",
     r" [============] "],
    # 4: arms
    [r"        o       ",
     r"    .---|---.   ",
     r"    | O   O |   ",
     r"    |  ===  |   ",
     r"    '--+-+--'   ",
     r"  .--[=====]--. ",
     r"  |  | o o |  | ",
     r"  E  |_____|  E ",
     r"                ",
     r"                ",
     r" [============] "],
    # 5: legs: the robot is complete
    [r"        o       ",
     r"    .---|---.   ",
     r"    | O   O |   ",
     r"    |  ===  |   ",
     r"    '--+-+--'   ",
     r"  .--[=====]--. ",
     r"  |  | o o |  | ",
     r"  E  |_____|  E ",
     r"       | |      ",
     r"      _| |_     ",
     r" [============] "],
    # 6: short circuit: sparks, crossed eyes, a loose arm
    [r"  *  \ o /   *  ",
     r"    .---|---. * ",
     r" *  | X   X |   ",
     r"    |  ~~~  |  *",
     r"    '--+-+--'   ",
     r"  .--[=====]--. ",
     r"  |  | x x |  \ ",
     r"  E  |_____|   E",
     r"   *   | |   *  ",
     r"      _| |_     ",
     r" [============] "],
]
ROBOT_SMALL = [
    [r"          ", r"          ", r"          ", r" [======] "],
    [r"    o     ", r"          ", r"          ", r" [======] "],
    [r"    o     ", r"   [oo]   ", r"          ", r" [======] "],
    [r"    o     ", r"   [oo]   ", r"   [##]   ", r" [======] "],
    [r"    o     ", r"   [oo]   ", r"  -[##]-  ", r" [======] "],
    [r"    o     ", r"   [oo]   ", r"  -[##]-  ", r" [=/==\=] "],
    [r" *  o   * ", r"   [xx] * ", r" * [##]-  ", r" [=/==\=] "],
]
ZOMBIE_FRAMES = [
    # 0: a quiet grave
    [r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"           .---.",
     r"           |RIP|",
     r"           |   |",
     r"   _.-''-._|___|",
     r"^^^^^^^^^^^^^^^^"],
    # 1: a hand comes out of the ground
    [r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"     \|/   .---.",
     r"      |    |RIP|",
     r"      |    |   |",
     r"   _.-|-._ |___|",
     r"^^^^^^^^^^^^^^^^"],
    # 2: both hands
    [r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"  \|/  \|/      ",
     r"   |    |  .---.",
     r"   |    |  |RIP|",
     r"   |    |  |   |",
     r"  _|.--.|_ |___|",
     r"^^^^^^^^^^^^^^^^"],
    # 3: the head rises between the arms
    [r"                ",
     r"                ",
     r"                ",
     r" \|/    \|/     ",
     r"  \ .--. /      ",
     r"   ( xo )  .---.",
     r"    \~~/   |RIP|",
     r"     ||    |   |",
     r"  _.-||-._ |___|",
     r"^^^^^^^^^^^^^^^^"],
    # 4: out to the waist, arms reaching forward
    [r"                ",
     r"                ",
     r"     .--.       ",
     r"    ( xo )      ",
     r"     \~~/       ",
     r" m===|##|  .---.",
     r"  m==|##|  |RIP|",
     r"     |##|  |   |",
     r"  _.-|__|-.|___|",
     r"^^^^^^^^^^^^^^^^"],
    # 5: fully risen
    [r"     .--.       ",
     r"    ( xo )      ",
     r"     \~~/       ",
     r" m===|##|       ",
     r"  m==|##|       ",
     r"     |__|  .---.",
     r"     /  \  |RIP|",
     r"    /    | |   |",
     r"   _|   _| |___|",
     r"^^^^^^^^^^^^^^^^"],
    # 6: falling apart
    [r"                ",
     r"                ",
     r"                ",
     r"                ",
     r"    '  .  '     ",
     r"     |##|  .---.",
     r"   m=|##|  |RIP|",
     r"     |__|  |   |",
     r"(x_x)/  \m=|___|",
     r"^^^^^^^^^^^^^^^^"],
]
ZOMBIE_SMALL = [
    [r"          ", r"          ", r"      [+] ", r"^^^^^^^^^^"],
    [r"          ", r"          ", r"  m   [+] ", r"^^|^^^^^^^"],
    [r"          ", r"          ", r"  m m [+] ", r"^^|^|^^^^^"],
    [r"          ", r"  m(x)m   ", r"   \|/[+] ", r"^^^^|^^^^^"],
    [r"   (x)    ", r" m=[#]    ", r"    #  [+]", r"^^^^#^^^^^"],
    [r"   (x)    ", r" m=[#]    ", r"    /\ [+]", r"^^^^^^^^^^"],
    [r"          ", r"    [#]   ", r" m= /\ [+]", r"^^^^^^(x)^"],
]
CLASSIC_FRAMES = [[line.ljust(9) for line in stage] for stage in [
    # Sources/hangman/Terminal/GameScreen.swift, Gallows.stages
    ["  +---+", "  |   |", "      |", "      |", "      |", "      |", "========="],
    ["  +---+", "  |   |", "  O   |", "      |", "      |", "      |", "========="],
    ["  +---+", "  |   |", "  O   |", "  |   |", "      |", "      |", "========="],
    ["  +---+", "  |   |", "  O   |", " /|   |", "      |", "      |", "========="],
    ["  +---+", "  |   |", "  O   |", " /|\\  |", "      |", "      |", "========="],
    ["  +---+", "  |   |", "  O   |", " /|\\  |", " /    |", "      |", "========="],
    ["  +---+", "  |   |", "  O   |", " /|\\  |", " / \\  |", "      |", "========="],
]]
CLASSIC_SMALL = [
    [r"|     ", r"|     ", r"|_____"],
    [r"|  O  ", r"|     ", r"|_____"],
    [r"|  O  ", r"|  |  ", r"|_____"],
    [r"|  O  ", r"| /|  ", r"|_____"],
    [r"|  O  ", r"| /|\ ", r"|_____"],
    [r"|  O  ", r"| /|\ ", r"|_/___"],
    [r"|  O  ", r"| /|\ ", r"|_/_\_"],
]

THEMES = {
    # folder: product id, display name, summary, frames, small frames
    "theme-robot": ("com.hangmanpacks.theme.robot", "Robot",
                    "A robot is assembled piece by piece with every miss, until it shorts out.",
                    ROBOT_FRAMES, ROBOT_SMALL),
    "theme-zombie": ("com.hangmanpacks.theme.zombie", "Zombie",
                     "A zombie claws its way out of the grave with every miss, then falls apart.",
                     ZOMBIE_FRAMES, ZOMBIE_SMALL),
    "theme-classic": ("com.hangmanpacks.theme.classic", "Classic",
                      "The classic gallows and stick figure the game draws without a theme.",
                      CLASSIC_FRAMES, CLASSIC_SMALL),
}
THEME_MANIFEST_KEYS = {"FormatVersion", "Kind", "ProductIdentifier", "ContentVersion",
                       "DisplayName", "Language", "Summary", "License", "Attribution"}


def frames_problem(frames, max_lines: int, max_width: int = 20) -> str | None:
    """Why a Frames/SmallFrames list breaks the theme rules, or None."""
    if not isinstance(frames, list) or len(frames) != 7:
        return "not 7 frames"
    sizes = set()
    for frame in frames:
        if not isinstance(frame, str) or frame.endswith("\n"):
            return "a frame is not a string without a trailing newline"
        if any(not 0x20 <= ord(c) <= 0x7E for c in frame.replace("\n", "")):
            return "a character outside printable ASCII"
        lines = frame.split("\n")
        widths = {len(line) for line in lines}
        if len(widths) != 1:
            return "lines of different widths"
        sizes.add((len(lines), widths.pop()))
    if len(sizes) != 1:
        return "frames of different sizes"
    lines, width = sizes.pop()
    if not (1 <= lines <= max_lines and 1 <= width <= max_width):
        return f"{lines} lines by {width} columns"
    return None


def theme_files(folder: str) -> tuple[dict, dict]:
    product, name, summary, frames, small = THEMES[folder]
    info = {
        "FormatVersion": 1,
        "Kind": "Theme",
        "ProductIdentifier": product,
        "ContentVersion": "1.0",
        "DisplayName": name,
        "Language": "en",
        "Summary": summary,
        "License": THEME_LICENSE,
        "Attribution": THEME_ATTRIBUTION,
    }
    body = {"name": name, "Frames": ["\n".join(f) for f in frames],
            "SmallFrames": ["\n".join(f) for f in small]}
    return info, body


# --------------------------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------------------------

def write_plist(path: Path, value) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = plistlib.dumps(value, fmt=plistlib.FMT_XML, sort_keys=True)
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def manifest(product: str, name: str, language: str, summary: str, license_: str,
             attribution: str, daily: str | None = None, version: str = "1.0") -> dict:
    extra = {"DailyList": daily} if daily else {}
    return extra | {
        "FormatVersion": 1,
        "ProductIdentifier": product,
        "ContentVersion": version,
        "DisplayName": name,
        "Language": language,
        "Summary": summary,
        "License": license_,
        "Attribution": attribution,
    }


# What the author decides. `hangman catalog update` (run by `make packs`) adds what publishing
# records: each archive's SHA256 and Size, and CatalogVersion. A rewrite keeps those (PUBLISHED).
# Catalog.plist without what `hangman catalog update` records (digests, sizes, manifest facts).
CATALOG = {   'BasePacks': [   {'Pack': 'base-english.wordpack'},
                     {'Pack': 'base-german.wordpack'},
                     {'Pack': 'base-french.wordpack'},
                     {'Pack': 'base-portuguese.wordpack'}],
    'BundleIdentifier': 'com.hangmanpacks.hangman',
    'Products': [   {   'Description': '197 Apple developer terms, each with a clue: from '
                                       'storyboard and delegate to grand central dispatch.',
                        'DisplayName': 'iOS Words',
                        'Localizations': {   'de': {   'Description': '197 Begriffe aus der '
                                                                      'Apple-Entwicklung, auf '
                                                                      'Englisch und jeder mit '
                                                                      'Hinweis: von Storyboard und '
                                                                      'Delegate bis Grand Central '
                                                                      'Dispatch.',
                                                       'DisplayName': 'iOS-Wörter'},
                                             'es': {   'Description': '197 términos del desarrollo '
                                                                      'para Apple, en inglés y '
                                                                      'cada uno con su pista: de '
                                                                      'storyboard y delegate a '
                                                                      'grand central dispatch.',
                                                       'DisplayName': 'Palabras de iOS'},
                                             'fr': {   'Description': '197 termes du développement '
                                                                      'Apple, en anglais et chacun '
                                                                      'avec un indice : de '
                                                                      'storyboard et delegate à '
                                                                      'grand central dispatch.',
                                                       'DisplayName': 'Mots iOS'}},
                        'Pack': 'ios-words.wordpack',
                        'Prices': {   'BRA': '5.90',
                                      'DEU': '0.99',
                                      'ESP': '0.99',
                                      'FRA': '0.99',
                                      'GBR': '0.99',
                                      'JPN': '120',
                                      'MEX': '19.00',
                                      'USA': '0.99'},
                        'ProductIdentifier': 'com.hangmanpacks.words.ios',
                        'Type': 'NonConsumable'},
                    {   'Description': '1,000 words with rare letters and few vowels, picked to '
                                       'beat even seasoned players.',
                        'DisplayName': 'Hard Words',
                        'Localizations': {   'de': {   'Description': '1.000 englische Wörter mit '
                                                                      'seltenen Buchstaben und '
                                                                      'wenigen Vokalen, '
                                                                      'ausgesucht, um selbst '
                                                                      'erfahrene Spieler ins '
                                                                      'Schwitzen zu bringen.',
                                                       'DisplayName': 'Schwere Wörter'},
                                             'es': {   'Description': '1000 palabras en inglés con '
                                                                      'letras raras y pocas '
                                                                      'vocales, elegidas para '
                                                                      'poner a prueba incluso a '
                                                                      'los más expertos.',
                                                       'DisplayName': 'Palabras difíciles'},
                                             'fr': {   'Description': '1 000 mots anglais aux '
                                                                      'lettres rares et aux '
                                                                      'voyelles peu nombreuses, '
                                                                      'choisis pour dérouter même '
                                                                      'les joueurs aguerris.',
                                                       'DisplayName': 'Mots difficiles'}},
                        'Pack': 'hard-words.wordpack',
                        'Prices': {   'BRA': '10.90',
                                      'DEU': '1.99',
                                      'ESP': '1.99',
                                      'FRA': '1.99',
                                      'GBR': '1.99',
                                      'JPN': '250',
                                      'MEX': '39.00',
                                      'USA': '1.99'},
                        'ProductIdentifier': 'com.hangmanpacks.words.hard',
                        'Type': 'NonConsumable'},
                    {   'Description': '3,000 Spanish words, with plenty of ñ and accented '
                                       'letters.',
                        'DisplayName': 'Palabras en español',
                        'Localizations': {   'de': {   'Description': '3.000 spanische Wörter, mit '
                                                                      'vielen ñ und Buchstaben mit '
                                                                      'Akzent.',
                                                       'DisplayName': 'Spanische Wörter'},
                                             'es': {   'Description': '3000 palabras en español, '
                                                                      'con muchas eñes y tildes.',
                                                       'DisplayName': 'Palabras en español'},
                                             'fr': {   'Description': '3 000 mots espagnols, avec '
                                                                      'beaucoup de ñ et de lettres '
                                                                      'accentuées.',
                                                       'DisplayName': 'Mots espagnols'}},
                        'Pack': 'spanish.wordpack',
                        'Prices': {   'BRA': '10.90',
                                      'DEU': '1.99',
                                      'ESP': '1.99',
                                      'FRA': '1.99',
                                      'GBR': '1.99',
                                      'JPN': '250',
                                      'MEX': '39.00',
                                      'USA': '1.99'},
                        'ProductIdentifier': 'com.hangmanpacks.words.es',
                        'Type': 'NonConsumable'},
                    {   'Description': 'A robot is assembled piece by piece with every miss, '
                                       'until it shorts out.',
                        'DisplayName': 'Robot Theme',
                        'Localizations': {   'de': {   'Description': 'Mit jedem Fehler wird ein '
                                                                      'Roboter Stück für Stück '
                                                                      'zusammengebaut, bis er einen '
                                                                      'Kurzschluss hat.',
                                                       'DisplayName': 'Roboter-Design'},
                                             'es': {   'Description': 'Con cada fallo se monta un '
                                                                      'robot pieza a pieza, hasta '
                                                                      'que hace cortocircuito.',
                                                       'DisplayName': 'Tema Robot'},
                                             'fr': {   'Description': 'À chaque erreur, un robot '
                                                                      'se monte pièce par pièce, '
                                                                      "jusqu'au court-circuit.",
                                                       'DisplayName': 'Thème Robot'}},
                        'Pack': 'theme-robot.wordpack',
                        'Prices': {   'BRA': '5.90',
                                      'DEU': '0.99',
                                      'ESP': '0.99',
                                      'FRA': '0.99',
                                      'GBR': '0.99',
                                      'JPN': '120',
                                      'MEX': '19.00',
                                      'USA': '0.99'},
                        'ProductIdentifier': 'com.hangmanpacks.theme.robot',
                        'Type': 'NonConsumable'},
                    {   'Description': 'A zombie claws its way out of the grave with every miss, '
                                       'then falls apart.',
                        'DisplayName': 'Zombie Theme',
                        'Localizations': {   'de': {   'Description': 'Mit jedem Fehler gräbt sich '
                                                                      'ein Zombie weiter aus dem '
                                                                      'Grab, bis er zerfällt.',
                                                       'DisplayName': 'Zombie-Design'},
                                             'es': {   'Description': 'Con cada fallo un zombi sale '
                                                                      'un poco más de la tumba, '
                                                                      'hasta que se desmorona.',
                                                       'DisplayName': 'Tema Zombi'},
                                             'fr': {   'Description': 'À chaque erreur, un zombie '
                                                                      'sort un peu plus de sa '
                                                                      "tombe, jusqu'à tomber en "
                                                                      'morceaux.',
                                                       'DisplayName': 'Thème Zombie'}},
                        'Pack': 'theme-zombie.wordpack',
                        'Prices': {   'BRA': '5.90',
                                      'DEU': '0.99',
                                      'ESP': '0.99',
                                      'FRA': '0.99',
                                      'GBR': '0.99',
                                      'JPN': '120',
                                      'MEX': '19.00',
                                      'USA': '0.99'},
                        'ProductIdentifier': 'com.hangmanpacks.theme.zombie',
                        'Type': 'NonConsumable'},
                    {   'Description': 'Ten hints: each one reveals a letter of the current word.',
                        'DisplayName': '10 Hints',
                        'HintCount': 10,
                        'Localizations': {   'de': {   'Description': 'Zehn Hinweise: Jeder deckt '
                                                                      'einen Buchstaben des '
                                                                      'aktuellen Wortes auf.',
                                                       'DisplayName': '10 Hinweise'},
                                             'es': {   'Description': 'Diez pistas: cada una '
                                                                      'descubre una letra de la '
                                                                      'palabra en juego.',
                                                       'DisplayName': '10 pistas'},
                                             'fr': {   'Description': 'Dix indices : chacun révèle '
                                                                      'une lettre du mot en cours.',
                                                       'DisplayName': '10 indices'}},
                        'Prices': {   'BRA': '5.90',
                                      'DEU': '0.99',
                                      'ESP': '0.99',
                                      'FRA': '0.99',
                                      'GBR': '0.99',
                                      'JPN': '120',
                                      'MEX': '19.00',
                                      'USA': '0.99'},
                        'ProductIdentifier': 'com.hangmanpacks.hints.10',
                        'Type': 'Consumable'},
                    {   'Description': 'A hundred hints: each one reveals a letter of the current '
                                       'word.',
                        'DisplayName': '100 Hints',
                        'HintCount': 100,
                        'Localizations': {   'de': {   'Description': 'Hundert Hinweise: Jeder '
                                                                      'deckt einen Buchstaben des '
                                                                      'aktuellen Wortes auf.',
                                                       'DisplayName': '100 Hinweise'},
                                             'es': {   'Description': 'Cien pistas: cada una '
                                                                      'descubre una letra de la '
                                                                      'palabra en juego.',
                                                       'DisplayName': '100 pistas'},
                                             'fr': {   'Description': 'Cent indices : chacun '
                                                                      'révèle une lettre du mot en '
                                                                      'cours.',
                                                       'DisplayName': '100 indices'}},
                        'Prices': {   'BRA': '27.90',
                                      'DEU': '4.99',
                                      'ESP': '4.99',
                                      'FRA': '4.99',
                                      'GBR': '4.99',
                                      'JPN': '610',
                                      'MEX': '99.00',
                                      'USA': '4.99'},
                        'ProductIdentifier': 'com.hangmanpacks.hints.100',
                        'Type': 'Consumable'},
                    {   'Description': 'No more pack suggestions after your games, on every device '
                                       'of your account.',
                        'DisplayName': 'Remove Ads',
                        'Feature': 'remove-ads',
                        'Localizations': {   'de': {   'Description': 'Keine Paketvorschläge mehr '
                                                                      'nach deinen Spielen, auf '
                                                                      'allen Geräten deines '
                                                                      'Kontos.',
                                                       'DisplayName': 'Werbung entfernen'},
                                             'es': {   'Description': 'Se acabaron las sugerencias '
                                                                      'de paquetes al terminar '
                                                                      'cada partida, en todos los '
                                                                      'dispositivos de tu cuenta.',
                                                       'DisplayName': 'Quitar anuncios'},
                                             'fr': {   'Description': 'Plus de suggestions de '
                                                                      'packs après vos parties, '
                                                                      'sur tous les appareils de '
                                                                      'votre compte.',
                                                       'DisplayName': 'Supprimer les pubs'}},
                        'Prices': {   'BRA': '16.90',
                                      'DEU': '2.99',
                                      'ESP': '2.99',
                                      'FRA': '2.99',
                                      'GBR': '2.99',
                                      'JPN': '370',
                                      'MEX': '59.00',
                                      'USA': '2.99'},
                        'ProductIdentifier': 'com.hangmanpacks.removeads',
                        'Type': 'NonConsumable'},
                    {   'Description': 'Every word pack while it lasts, and 20 hints each month. '
                                       'The first week is free.',
                        'DisplayName': 'Hangman Pass (monthly)',
                        'GroupLevel': 2,
                        'HintsPerPeriod': 20,
                        'IntroductoryOffer': {'Period': 'P1W', 'Type': 'FreeTrial'},
                        'Localizations': {   'de': {   'Description': 'Alle Wortpakete, solange er '
                                                                      'läuft, und jeden Monat 20 '
                                                                      'Hinweise. Die erste Woche '
                                                                      'ist gratis.',
                                                       'DisplayName': 'Hangman Pass (monatlich)'},
                                             'es': {   'Description': 'Todos los paquetes de '
                                                                      'palabras mientras dure, y '
                                                                      '20 pistas cada mes. La '
                                                                      'primera semana es gratis.',
                                                       'DisplayName': 'Hangman Pass (mensual)'},
                                             'fr': {   'Description': 'Tous les packs de mots tant '
                                                                      "qu'il dure, et 20 indices "
                                                                      'chaque mois. La première '
                                                                      'semaine est offerte.',
                                                       'DisplayName': 'Hangman Pass (mensuel)'}},
                        'Period': 'P1M',
                        'Prices': {   'BRA': '16.90',
                                      'DEU': '2.99',
                                      'ESP': '2.99',
                                      'FRA': '2.99',
                                      'GBR': '2.99',
                                      'JPN': '370',
                                      'MEX': '59.00',
                                      'USA': '2.99'},
                        'ProductIdentifier': 'com.hangmanpacks.pass.monthly',
                        'SubscriptionGroup': 'pass',
                        'Type': 'AutoRenewable',
                        'Unlocks': 'AllPacks'},
                    {   'Description': 'Every word pack while it lasts, and 20 hints each month, '
                                       'for a year at a time.',
                        'DisplayName': 'Hangman Pass (yearly)',
                        'GroupLevel': 1,
                        'HintsPerPeriod': 20,
                        'IntroductoryOffer': {'Period': 'P1W', 'Type': 'FreeTrial'},
                        'Localizations': {   'de': {   'Description': 'Alle Wortpakete, solange er '
                                                                      'läuft, und jeden Monat 20 '
                                                                      'Hinweise, jeweils für ein '
                                                                      'Jahr.',
                                                       'DisplayName': 'Hangman Pass (jährlich)'},
                                             'es': {   'Description': 'Todos los paquetes de '
                                                                      'palabras mientras dure, y '
                                                                      '20 pistas cada mes, un año '
                                                                      'cada vez.',
                                                       'DisplayName': 'Hangman Pass (anual)'},
                                             'fr': {   'Description': 'Tous les packs de mots tant '
                                                                      "qu'il dure, et 20 indices "
                                                                      'chaque mois, un an à la '
                                                                      'fois.',
                                                       'DisplayName': 'Hangman Pass (annuel)'}},
                        'Period': 'P1Y',
                        'Prices': {   'BRA': '139.90',
                                      'DEU': '24.99',
                                      'ESP': '24.99',
                                      'FRA': '24.99',
                                      'GBR': '24.99',
                                      'JPN': '3000',
                                      'MEX': '499.00',
                                      'USA': '24.99'},
                        'ProductIdentifier': 'com.hangmanpacks.pass.yearly',
                        'SubscriptionGroup': 'pass',
                        'Type': 'AutoRenewable',
                        'Unlocks': 'AllPacks'},
                    {   'Description': 'Every word pack for 30 days; buy it again to add 30 more. '
                                       'It does not renew.',
                        'DisplayName': 'Hangman 30-Day Pass',
                        'Duration': 'P30D',
                        'Localizations': {   'de': {   'Description': 'Alle Wortpakete für 30 '
                                                                      'Tage; kauf ihn erneut, um '
                                                                      '30 weitere Tage '
                                                                      'hinzuzufügen. Er verlängert '
                                                                      'sich nicht.',
                                                       'DisplayName': '30-Tage-Pass'},
                                             'es': {   'Description': 'Todos los paquetes de '
                                                                      'palabras durante 30 días; '
                                                                      'cómpralo de nuevo para '
                                                                      'sumar otros 30. No se '
                                                                      'renueva.',
                                                       'DisplayName': 'Pase de 30 días'},
                                             'fr': {   'Description': 'Tous les packs de mots '
                                                                      'pendant 30 jours ; '
                                                                      'rachetez-le pour en ajouter '
                                                                      '30 de plus. Il ne se '
                                                                      'renouvelle pas.',
                                                       'DisplayName': 'Pass 30 jours'}},
                        'Prices': {   'BRA': '21.90',
                                      'DEU': '3.99',
                                      'ESP': '3.99',
                                      'FRA': '3.99',
                                      'GBR': '3.99',
                                      'JPN': '490',
                                      'MEX': '79.00',
                                      'USA': '3.99'},
                        'ProductIdentifier': 'com.hangmanpacks.pass.30days',
                        'Type': 'NonRenewing',
                        'Unlocks': 'AllPacks'}],
    'Storefronts': {   'BRA': 'BRL',
                       'DEU': 'EUR',
                       'ESP': 'EUR',
                       'FRA': 'EUR',
                       'GBR': 'GBP',
                       'JPN': 'JPY',
                       'MEX': 'MXN',
                       'USA': 'USD'}}


PUBLISHED_PACK_KEYS = ("SHA256", "Size", "ContentVersion", "WordCount", "Kind")
PUBLISHED_BASE_KEYS = PUBLISHED_PACK_KEYS + ("DisplayName", "ProductIdentifier", "Language")


def pack_entries(catalog: dict) -> list[dict]:
    return [e for e in catalog.get("BasePacks", []) + catalog.get("Products", [])
            if isinstance(e, dict) and "Pack" in e]


# Top-level keys `hangman catalog update` writes: the catalog's version and the digest of its
# content as last published (how the next publish tells that something changed).
PUBLISHED_CATALOG_KEYS = ("CatalogVersion", "PublishedSHA256")


def without_published(catalog: dict) -> dict:
    """The catalog without what `hangman catalog update` records."""
    stripped = {k: v for k, v in catalog.items() if k not in PUBLISHED_CATALOG_KEYS}
    for key, published in (("BasePacks", PUBLISHED_BASE_KEYS), ("Products", PUBLISHED_PACK_KEYS)):
        stripped[key] = [{k: v for k, v in e.items() if k not in published}
                         if isinstance(e, dict) else e for e in catalog.get(key, [])]
    return stripped


def with_published(catalog: dict, path: Path) -> dict:
    """CATALOG plus the digests, sizes and CatalogVersion already recorded in `path`."""
    if not path.exists():
        return catalog
    old = plistlib.loads(path.read_bytes())
    recorded = {e["Pack"]: {k: e[k] for k in PUBLISHED_BASE_KEYS if k in e}
                for e in old.get("BasePacks", []) if isinstance(e, dict) and "Pack" in e}
    recorded.update({e["Pack"]: {k: e[k] for k in PUBLISHED_PACK_KEYS if k in e}
                     for e in old.get("Products", []) if isinstance(e, dict) and "Pack" in e})
    new = copy.deepcopy(catalog)
    for entry in pack_entries(new):
        entry.update(recorded.get(entry["Pack"], {}))    # a new pack: nothing recorded yet
    for key in PUBLISHED_CATALOG_KEYS:
        if key in old:
            new[key] = old[key]
    return new


def generate() -> None:
    for path in (SCOWL / "english-words.10", WAMERICAN, SPANISH, NGERMAN, FRENCH, BRAZILIAN,
                 WORDNET / "data.noun", *(FREEDICT / f"freedict-eng-{spec['freedict']}.index"
                                          for spec in FOREIGN.values())):
        if not path.exists():
            sys.exit(f"missing {path}: apt-get install {DEBIAN_PACKAGES}")
    by_level = {level: scowl_words(level) for level in LEVELS}
    level_of: dict[str, int] = {}
    for level in sorted(LEVELS, reverse=True):       # a word's level is the lowest it is in
        for w in by_level[level]:
            level_of[w] = level
    abbreviations = scowl_abbreviations()
    names = scowl_names()
    us_words = set(unicodedata.normalize("NFC", w)
                   for w in WAMERICAN.read_text(encoding="utf-8").split())

    def cross_check(words: list[str]) -> list[str]:
        missing = [w for w in words if w not in us_words]
        if missing:
            print(f"not in {WAMERICAN}, dropped: {' '.join(missing)}", file=sys.stderr)
        return [w for w in words if w in us_words]

    # base-english, with WordNet clues and a daily list (SCOWL size-10 words of 5-9 letters in
    # a seeded order)
    short, long_ = (cross_check(ws) for ws in make_base(abbreviations, names, level_of))
    clues = make_clues(short + long_, WordNet())
    print(f"base-english: {len(clues)} of {len(short) + len(long_)} words have a WordNet clue")
    daily = sorted(stable_order([w for w in short + long_ if level_of[w] == 10 and
                                 DAILY_LENGTHS[0] <= len(w) <= DAILY_LENGTHS[1]],
                                "daily-en")[:DAILY_TARGET])
    # The daily list is a list of the pack like the others (played, counted once): its words
    # leave the short and long lists, so that a reader of the format before DailyList finds no
    # word twice.
    short = [w for w in short if w not in set(daily)]
    long_ = [w for w in long_ if w not in set(daily)]

    def with_clues(words: list[str]) -> list:
        return [{"word": w, "clue": clues[w]} if w in clues else w for w in words]

    folder = PACKS / "base-english"
    write_plist(folder / "Info.plist", manifest(
        "com.hangmanpacks.words.base", "Everyday English", "en",
        f"{len(short) + len(long_) + len(daily):,} everyday English words to get you started, free, most "
        "with a clue.",
        SCOWL_LICENSE + " " + WORDNET_LICENSE,
        SCOWL_ATTRIBUTION.format(levels="sizes 10 and 20") + WORDNET_ATTRIBUTION,
        daily="daily.plist", version="1.2"))     # 1.1: clues and the daily list; 1.2: its words its own
    write_plist(folder / "words" / "short.plist",
                {"name": "Short Words", "words": with_clues(short)})
    write_plist(folder / "words" / "long.plist",
                {"name": "Long Words", "words": with_clues(long_)})
    write_plist(folder / "daily.plist", {"name": "Common Words", "words": with_clues(daily)})
    print(f"base-english: {len(short)} short, {len(long_)} long, {len(daily)} daily")

    # base-german, base-french, base-portuguese
    english = english_headwords(level_of, abbreviations, names)
    for language, spec in FOREIGN.items():
        entries = read_freedict(spec["freedict"])
        blocked_heads = {h for h, _ in entries if re.fullmatch(r"[a-z]+", h) and blocked_en(h)}
        f_short, f_long, f_daily, _ = make_foreign(language, english, blocked_heads, entries)
        # The daily words leave the short and long lists (a list of their own, as in English).
        f_short = [w for w in f_short if w not in set(f_daily)]
        f_long = [w for w in f_long if w not in set(f_daily)]
        words = f_short + f_long + f_daily
        own = sum(1 for w in words if any(c in spec["own"] for c in w))
        print(f"{spec['folder']}: {len(f_short)} short, {len(f_long)} long, {len(f_daily)} "
              f"daily; {own} words ({100 * own / len(words):.1f}%) with {spec['own']}")
        folder = PACKS / spec["folder"]
        count = f"{len(words):,}".replace(",", "." if language == "de" else " "
                                         if language == "fr" else ".")
        write_plist(folder / "Info.plist", manifest(
            spec["product"], spec["name"], spec["tag"], spec["summary"].format(n=count),
            spec["license"], spec["attribution"], daily="daily.plist", version="1.1"))  # 1.1: the daily list its own
        write_plist(folder / "words" / "short.plist", {"name": spec["short"], "words": f_short})
        write_plist(folder / "words" / "long.plist", {"name": spec["long"], "words": f_long})
        write_plist(folder / "daily.plist", {"name": spec["daily"], "words": f_daily})

    # themes
    for name in THEMES:
        info, body = theme_files(name)
        write_plist(PACKS / name / "Info.plist", info)
        write_plist(PACKS / name / "frames.plist", body)

    # ios-words
    folder = PACKS / "ios-words"
    write_plist(folder / "Info.plist", manifest(
        "com.hangmanpacks.words.ios", "iOS Words", "en",
        f"{len(IOS_WORDS)} terms every Apple developer knows, each with a clue.",
        IOS_LICENSE, IOS_ATTRIBUTION))
    write_plist(folder / "words.plist", {
        "name": "iOS Words",
        "words": [{"word": w, "clue": c} for w, c in IOS_WORDS],
    })

    # hard-words
    hard_short, hard_long = (cross_check(ws) for ws in
                             make_hard(level_of, abbreviations, names)[:2])
    folder = PACKS / "hard-words"
    write_plist(folder / "Info.plist", manifest(
        "com.hangmanpacks.words.hard", "Hard Words", "en",
        f"{len(hard_short) + len(hard_long):,} words with rare letters and few vowels, "
        "chosen to be as hard to guess as possible.",
        SCOWL_LICENSE,
        SCOWL_ATTRIBUTION.format(levels=f"sizes {HARD_LEVELS[0]} to {HARD_LEVELS[1]}")))
    write_plist(folder / "words" / "short.plist",
                {"name": "Short and Sneaky", "words": hard_short})
    write_plist(folder / "words" / "long.plist",
                {"name": "Long and Tricky", "words": hard_long})

    # spanish
    plain, marked, _ = make_spanish(by_level)
    folder = PACKS / "spanish"
    write_plist(folder / "Info.plist", manifest(
        "com.hangmanpacks.words.es", "Palabras en español", "es",
        f"{len(plain) + len(marked)} palabras en español, con eñes y tildes para adivinar.",
        WSPANISH_LICENSE, WSPANISH_ATTRIBUTION))
    write_plist(folder / "words" / "palabras.plist", {"name": "Palabras", "words": plain})
    write_plist(folder / "words" / "tildes.plist",
                {"name": "Con eñe y tildes", "words": marked})

    # Archives are rebuilt by `make packs`, which then records their digests (catalog update).
    write_plist(PACKS / "Catalog.plist", with_published(CATALOG, PACKS / "Catalog.plist"))


# --------------------------------------------------------------------------------------------
# Validation of the committed output (what the verifier will check, plus house rules)
# --------------------------------------------------------------------------------------------

PACK_RULES = {
    # folder: (product id, language, minimum letters, min words, max words)
    "base-english": ("com.hangmanpacks.words.base", "en", 4, 2000, 3500),
    "ios-words": ("com.hangmanpacks.words.ios", "en", 4, 120, 200),
    "hard-words": ("com.hangmanpacks.words.hard", "en", 5, 900, 1100),
    "spanish": ("com.hangmanpacks.words.es", "es", 5, 2500, 3500),
    "base-german": ("com.hangmanpacks.words.base.de", "de", 4, 2000, 3500),
    "base-french": ("com.hangmanpacks.words.base.fr", "fr", 4, 1500, 3500),
    "base-portuguese": ("com.hangmanpacks.words.base.pt", "pt-BR", 4, 2000, 3500),
}
DAILY_PACKS = ("base-english", "base-german", "base-french", "base-portuguese")
DAILY_MINIMUM = 730
MANIFEST_KEYS = {"FormatVersion", "ProductIdentifier", "ContentVersion", "DisplayName",
                 "Language", "Summary", "License", "Attribution"}


def blocked_in(word: str, language: str) -> bool:
    primary = language.split("-")[0]
    if primary == "es":
        return blocked_es(word)
    if primary in FOREIGN_BLOCK:
        return blocked_foreign(word, primary)
    parts = [word.replace(" ", "")] + word.split()
    return any(blocked_en(part) for part in parts)


def check() -> list[str]:
    problems: list[str] = []
    for folder_name, (product, language, min_letters, lo, hi) in PACK_RULES.items():
        folder = PACKS / folder_name
        info = plistlib.loads((folder / "Info.plist").read_bytes())
        daily_file = info.get("DailyList")
        expected_keys = MANIFEST_KEYS | ({"DailyList"} if folder_name in DAILY_PACKS else set())
        if set(info) != expected_keys:
            problems.append(f"{folder_name}: manifest keys {sorted(info)}")
        if info.get("FormatVersion") != 1 or info.get("ProductIdentifier") != product \
                or info.get("Language") != language:
            problems.append(f"{folder_name}: manifest values")
        seen: dict[str, str] = {}
        total = 0
        for path in sorted(folder.rglob("*.plist")):
            if path.name in ("Info.plist", "Signature.plist"):
                continue
            root = plistlib.loads(path.read_bytes())
            entries = root["words"] if isinstance(root, dict) else root
            for entry in entries:
                word = entry["word"] if isinstance(entry, dict) else entry
                total += 1
                why = word_problem(word, min_letters)
                if why:
                    problems.append(f"{path.relative_to(PACKS)}: {word!r}: {why}")
                if blocked_in(word, language):
                    problems.append(f"{path.relative_to(PACKS)}: {word!r}: blocklisted")
                key = fold_es(word) if language == "es" else fold_word(word, language)
                if key in seen:
                    problems.append(f"{folder_name}: duplicate {word!r} ({seen[key]})")
                seen[key] = path.name
                if isinstance(entry, dict):
                    clue = entry.get("clue", "")
                    if not clue or len(clue) > (CLUE_MAX if folder_name == "base-english"
                                                else 500) \
                            or any(len(t) >= 3 and t in clue.lower() for t in word.split()):
                        problems.append(f"{folder_name}: clue of {word!r} gives it away")
        if not lo <= total <= hi:
            problems.append(f"{folder_name}: {total} words, expected {lo}-{hi}")
        if folder_name in DAILY_PACKS:
            # the daily list: at least two years of 5-9 letter words, a list of the pack, sorted
            path = folder / (daily_file or "daily.plist")
            if not daily_file or not path.exists():
                problems.append(f"{folder_name}: no DailyList")
                continue
            daily = plistlib.loads(path.read_bytes())
            words = [e["word"] if isinstance(e, dict) else e
                     for e in (daily.get("words", []) if isinstance(daily, dict) else [])]
            keys = [fold_es(w) if language == "es" else fold_word(w, language) for w in words]
            if not isinstance(daily, dict) or not daily.get("name") \
                    or not all(isinstance(w, str) for w in words):
                problems.append(f"{folder_name}: {daily_file} is not a list of words")
            elif len(words) < DAILY_MINIMUM or words != sorted(set(words)) \
                    or any(not DAILY_LENGTHS[0] <= len(w) <= DAILY_LENGTHS[1] for w in words) \
                    or any(k not in seen for k in keys):
                problems.append(f"{folder_name}: {daily_file}: {len(words)} words, expected "
                                f"{DAILY_MINIMUM}+ sorted words of {DAILY_LENGTHS[0]}-"
                                f"{DAILY_LENGTHS[1]} letters, each in the pack's lists")
    for name in THEMES:
        folder = PACKS / name
        info = plistlib.loads((folder / "Info.plist").read_bytes())
        body = plistlib.loads((folder / "frames.plist").read_bytes())
        if set(info) != THEME_MANIFEST_KEYS or info.get("Kind") != "Theme" \
                or info.get("ProductIdentifier") != THEMES[name][0]:
            problems.append(f"{name}: manifest {sorted(info)}")
        if set(body) != {"name", "Frames", "SmallFrames"}:
            problems.append(f"{name}: frames.plist keys {sorted(body)}")
        for key, max_lines in (("Frames", 12), ("SmallFrames", 4)):
            why = frames_problem(body.get(key), max_lines)
            if why:
                problems.append(f"{name}: {key}: {why}")
    classic = plistlib.loads((PACKS / "theme-classic" / "frames.plist").read_bytes())["Frames"]
    classic_small = plistlib.loads((PACKS / "theme-classic" / "frames.plist").read_bytes())["SmallFrames"]
    # The game's own drawing is checked against the pack by the Swift tests (ScreenLayoutTests).
    if [f.split("\n") for f in classic] != CLASSIC_FRAMES or \
            [f.split("\n") for f in classic_small] != CLASSIC_SMALL:
        problems.append("theme-classic: frames differ from CLASSIC_FRAMES/CLASSIC_SMALL here")
    catalog = plistlib.loads((PACKS / "Catalog.plist").read_bytes())
    if without_published(catalog) != without_published(CATALOG):
        problems.append("Catalog.plist differs from CATALOG")
    for entry in pack_entries(catalog):
        if any(key not in entry for key in ("SHA256", "Size", "ContentVersion")):
            if (PACKS / entry["Pack"]).exists():
                problems.append(f"Catalog.plist: {entry['Pack']}: no SHA256/Size: "
                                "run 'make packs'")
            else:       # a new pack: `make packs` builds it and records its digest
                print(f"note: {entry['Pack']} is not built yet: 'make packs' builds it and "
                      "records its SHA256/Size", file=sys.stderr)
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only validate, write nothing")
    args = parser.parse_args()
    if not args.check:
        generate()
    problems = check()
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    print("Packs OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
