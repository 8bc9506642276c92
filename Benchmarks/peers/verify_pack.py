#!/usr/bin/env python3
"""A peer of `hangman pack verify`, in Python 3.11 with the standard library only.

Usage: python3 Benchmarks/peers/verify_pack.py FILE...

It is the baseline the benchmark times `hangman pack verify` against, so it does the same checks
the Swift `PackVerifier` does (Sources/WordPacks, Sources/Archive), in memory: nothing is ever
extracted or written to disk.

Prints `FILE: ok: N words` for a valid pack, otherwise one line per problem,
`FILE: ENTRY: what is wrong` (or `FILE: what is wrong` when no entry is concerned).
Exit status: 0 all valid, 65 any invalid, 66 a file is missing (wins over 65), 64 bad usage.

Checks, following the pack format (version 1) of DESIGN.md:
- the file: at most 256 MiB, read whole into memory;
- the container, detected from the bytes: tar (plain, gzip, bzip2, xz) or zip; zstd-compressed
  tar is reported as unsupported (no zstd in Python's standard library); 7z, RAR, xar, ar, cpio,
  ISO 9660, cab and arj are refused by name, anything else as "not a tar or zip archive";
- entry names: valid UTF-8, no control characters (Cc, bidi overrides), not absolute (`/x`,
  `C:`), no backslash, no `..`; duplicates compared after NFC + lower case (Swift compares
  `path.lowercased()` in a Dictionary, which uses canonical equivalence);
- entry types: only files and folders; symlinks, hard links, devices, FIFOs, sockets, sparse
  files and unknown types are refused;
- limits, enforced while reading (data is read in 1 MiB chunks and reading stops at the limit):
  10,000 entries, 64 MiB per entry, 256 MiB in all; truncated or corrupt streams;
- property lists: XML or binary (bplist00) through plistlib, then walked with an explicit stack:
  nesting at most 64 deep, no cycles (ids on the current path), at most 16,777,216 values,
  string keys, no binary UIDs or nulls;
- the manifest (Info.plist at the root or under one top folder): FormatVersion integer 1,
  ProductIdentifier reverse-DNS, ContentVersion dotted integers, DisplayName non-empty string,
  optional Language (BCP 47), Summary/License/Attribution strings, WordCount equal to the words,
  Files {path: {SHA256, Size}} matching every listed file, no unlisted file;
- Apple's hosted-content layout: ContentInfo.plist (IAPProductIdentifier, ContentVersion), files
  under Contents/ or beside it, checked against an Info.plist when there is one too;
- word lists: every other *.plist; root an array or a dict with a `words` array (+ optional
  `name`); a word a string or a dict {word, clue}; no empty list; a word is NFC, 2..40 letters of
  any script (combining marks after a letter) with single inner spaces, hyphens or apostrophes
  (' or U+2019; an apostrophe may touch a space or hyphen); duplicates across the pack compared
  by NFC + str.lower() (Swift's lowercased()); at most 20 word problems listed per list.

Not done (no Ed25519 in the standard library): a Signature.plist is decoded as a property list
and kept out of the word lists, but its signature is not checked. Duplicate keys inside a plist
dict are not detected (plistlib keeps the last one; the Swift reader refuses them).
"""
import hashlib
import io
import os
import plistlib
import sys
import tarfile
import unicodedata
import zipfile

MAX_ENTRIES = 10_000
MAX_ENTRY_SIZE = 64 << 20
MAX_TOTAL_SIZE = 256 << 20
MAX_ARCHIVE_SIZE = 256 << 20
MAX_DEPTH = 64
MAX_OBJECTS = 16_777_216
MAX_PROBLEMS_PER_LIST = 20
MAX_CLUE = 500
MIN_LETTERS = 2
MAX_LETTERS = 40
CHUNK = 1 << 20
SUPPORTED_FORMAT_VERSION = 1
SPECIAL_NAMES = frozenset(["Info.plist", "ContentInfo.plist", "Signature.plist"])

EX_OK, EX_USAGE, EX_DATAERR, EX_NOINPUT = 0, 64, 65, 66


class Problem:
    __slots__ = ("entry", "message", "fatal", "missing")

    def __init__(self, entry, message, fatal=False, missing=False):
        self.entry = entry
        self.message = message
        self.fatal = fatal
        self.missing = missing

    def __str__(self):
        return f"{self.entry}: {self.message}" if self.entry is not None else self.message


class Fatal(Exception):
    """A problem that ends reading the archive (corrupt stream, limit reached)."""

    def __init__(self, problem):
        super().__init__(problem.message)
        self.problem = problem


class PlistError(Exception):
    pass


# ---------------------------------------------------------------- names and printing

def is_control(cp):
    return unicodedata.category(chr(cp)) == "Cc" or 0x202A <= cp <= 0x202E or 0x2066 <= cp <= 0x2069


def printable_name(name):
    """An entry name safe to print: invalid UTF-8 bytes (surrogate escapes) as \\xNN, controls as \\u{N}."""
    out = []
    for ch in name:
        cp = ord(ch)
        if 0xDC80 <= cp <= 0xDCFF:
            out.append("\\x%02x" % (cp - 0xDC00))
        elif 0xD800 <= cp <= 0xDFFF:
            out.append("\\u{%x}" % cp)
        elif is_control(cp):
            out.append("\\u{%x}" % cp)
        else:
            out.append(ch)
    return "".join(out)


def printable(text):
    """A word safe to print: control and format characters escaped, cut after 60 scalars."""
    out = []
    for ch in text[:60]:
        if unicodedata.category(ch) in ("Cc", "Cf"):
            out.append("\\u{%x}" % ord(ch))
        else:
            out.append(ch)
    return "".join(out) + ("…" if len(text) > 60 else "")


def check_name(name):
    """(components, problem): components None for the archive root itself (`./`)."""
    for ch in name:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            return None, "name is not valid UTF-8"
    for ch in name:
        cp = ord(ch)
        if is_control(cp):
            return None, "name contains the control character U+%04X" % cp
    if name.startswith("/"):
        return None, "absolute path: entries must be relative to the pack folder"
    if "\\" in name:
        return None, "name contains a backslash"
    if len(name) >= 2 and name[1] == ":" and name[0].isascii() and name[0].isalpha():
        return None, "absolute path with a drive letter"
    components = []
    for part in name.split("/"):
        if part == "" or part == ".":
            continue
        if part == "..":
            return None, "path contains '..', which would leave the pack folder"
        components.append(part)
    return (components or None), None


def fold_name(path):
    nfc = unicodedata.normalize("NFC", path)
    return unicodedata.normalize("NFC", nfc.lower())


# ---------------------------------------------------------------- property lists

SCALAR_TYPES = (str, int, float, bool, bytes)


def type_name(value):
    t = type(value)
    if t is str:
        return "string"
    if t is bool:
        return "boolean"
    if t is int:
        return "integer"
    if t is float:
        return "real"
    if t is bytes or t is bytearray:
        return "data"
    if t is list:
        return "array"
    if t is dict:
        return "dictionary"
    if t.__name__ == "datetime":
        return "date"
    return t.__name__


def decode_plist(data):
    """Decodes XML or binary plist bytes, then checks depth, cycles, value count and types."""
    if data.startswith(b"bplist"):
        if not data.startswith(b"bplist00"):
            raise PlistError("binary property list version '%s' is not supported; only bplist00 is read"
                             % data[:8].decode("ascii", "replace"))
        fmt = plistlib.FMT_BINARY
    else:
        if data[:4] in (b"\x00\x00\xfe\xff", b"\xff\xfe\x00\x00"):
            raise PlistError("UTF-32 text is not supported; property lists must be UTF-8 XML or binary")
        if data[:2] in (b"\xfe\xff", b"\xff\xfe", b"\x00<", b"<\x00"):
            raise PlistError("UTF-16 text is not supported; property lists must be UTF-8 XML or binary")
        start = 3 if data.startswith(b"\xef\xbb\xbf") else 0
        stripped = data[start:start + 4096].lstrip(b" \t\r\n")
        if not stripped:
            raise PlistError("empty input is not a property list" if not data else "input holds only whitespace, not a property list")
        if stripped[:1] != b"<":
            raise PlistError("not a property list: expected '<' (XML) or 'bplist00' (binary) at the start")
        fmt = plistlib.FMT_XML
    try:
        value = plistlib.loads(data, fmt=fmt)
    except RecursionError:
        raise PlistError("containers nest deeper than the limit of %d" % MAX_DEPTH) from None
    except Exception as error:  # plistlib raises many kinds on hostile input
        raise PlistError(str(error) or type(error).__name__) from None
    walk_plist(value)
    return value


def walk_plist(value):
    """Depth-first walk with an explicit stack; ids of the containers on the current path find cycles.

    Values are counted once per reference, like the Swift reader; a container shared by several
    parents is walked once and its (expanded count, height) remembered, so a binary plist whose
    shared objects expand exponentially is refused in time proportional to its distinct objects.
    """
    t = type(value)
    if t is not list and t is not dict:
        check_scalar(value)
        return
    on_path = {id(value)}
    done = {}  # id -> (values below it, height)
    items = 2 * len(value) if t is dict else len(value)
    count = 1 + items
    if t is dict:
        check_keys(value)
    # frame: [iterator over children, id, values below, height]
    stack = [[iter(value.values() if t is dict else value), id(value), items, 1]]
    while stack:
        frame = stack[-1]
        for child in frame[0]:
            ct = type(child)
            if ct is str:
                continue
            if ct is list or ct is dict:
                cid = id(child)
                if cid in on_path:
                    raise PlistError("the property list is cyclic: a container contains itself")
                known = done.get(cid)
                if known is not None:
                    below, height = known
                    if len(stack) + height > MAX_DEPTH:
                        raise PlistError("containers nest deeper than the limit of %d" % MAX_DEPTH)
                    count += below
                    if count > MAX_OBJECTS:
                        raise PlistError("the property list expands to more than %d values (shared objects count once per reference)" % MAX_OBJECTS)
                    frame[2] += below
                    if height + 1 > frame[3]:
                        frame[3] = height + 1
                    continue
                if len(stack) + 1 > MAX_DEPTH:
                    raise PlistError("containers nest deeper than the limit of %d" % MAX_DEPTH)
                items = 2 * len(child) if ct is dict else len(child)
                count += items
                if count > MAX_OBJECTS:
                    raise PlistError("the property list expands to more than %d values (shared objects count once per reference)" % MAX_OBJECTS)
                on_path.add(cid)
                if ct is dict:
                    check_keys(child)
                    stack.append([iter(child.values()), cid, items, 1])
                else:
                    stack.append([iter(child), cid, items, 1])
                break
            check_scalar(child)
        else:
            stack.pop()
            oid = frame[1]
            on_path.discard(oid)
            done[oid] = (frame[2], frame[3])
            if stack:
                parent = stack[-1]
                parent[2] += frame[2]
                if frame[3] + 1 > parent[3]:
                    parent[3] = frame[3] + 1


def check_keys(d):
    for key in d:
        if type(key) is not str:
            raise PlistError("a dictionary key is %s, expected a string" % type_name(key))


def check_scalar(value):
    if isinstance(value, SCALAR_TYPES) or type(value).__name__ == "datetime":
        return
    if value is None:
        raise PlistError("binary nulls are not supported")
    if isinstance(value, plistlib.UID):
        raise PlistError("binary UIDs (keyed archives) are not supported")
    raise PlistError("unsupported value of type %s" % type(value).__name__)


# ---------------------------------------------------------------- words

SEPARATORS = frozenset(" -'\u2019")
APOSTROPHES = frozenset("'\u2019")
NOT_PRINTABLE = frozenset(["Cc", "Cf", "Zl", "Zp", "Zs", "Cn", "Cs", "Co"])


def describe(ch):
    code = "U+%04X" % ord(ch)
    return code if unicodedata.category(ch) in NOT_PRINTABLE else f"'{ch}' ({code})"


def word_problem(word):
    """Why `word` is not a valid word (WordRules.problem), or None."""
    if not word:
        return "is empty"
    if word.isascii() and word.isalpha() and MIN_LETTERS <= len(word) <= MAX_LETTERS:
        return None
    letters = 0
    previous_separator = None
    previous_was_separator = True
    in_letter = False
    category = unicodedata.category
    for ch in word:
        if ch in SEPARATORS:
            if letters == 0:
                return f"starts with '{ch}': spaces, hyphens and apostrophes must be inside the word"
            if previous_separator is not None and (
                    previous_separator == ch or not (previous_separator in APOSTROPHES or ch in APOSTROPHES)):
                return (f"has '{previous_separator}' and '{ch}' in a row (spaces and hyphens are single; "
                        "an apostrophe may touch one, as in rock 'n' roll)")
            previous_was_separator = True
            previous_separator = ch
            in_letter = False
            continue
        major = category(ch)[0]
        if major == "L":
            letters += 1
            previous_was_separator = False
            previous_separator = None
            in_letter = True
        elif major == "M" and in_letter:
            continue
        else:
            return f"contains {describe(ch)}, which is not a letter, space, hyphen or apostrophe"
    if previous_was_separator:
        return "ends with a space, hyphen or apostrophe"
    if letters < MIN_LETTERS:
        return "has %d letter%s; a word has at least %d" % (letters, "" if letters == 1 else "s", MIN_LETTERS)
    if letters > MAX_LETTERS:
        return "has %d letters; a word has at most %d" % (letters, MAX_LETTERS)
    if not unicodedata.is_normalized("NFC", word):
        return "is not in Unicode NFC form (compose its accents: U+00E9 rather than e + U+0301)"
    return None


class WordList:
    __slots__ = ("path", "name", "words")

    def __init__(self, path, name, words):
        self.path = path
        self.name = name
        self.words = words


def parse_word_list(value, path, problems):
    """WordList.parse: returns a WordList or None, appending problems; the second result says
    whether any problem was found."""
    file_name = path.rsplit("/", 1)[-1]
    name = file_name[:-6] if file_name.lower().endswith(".plist") else file_name
    t = type(value)
    if t is list:
        items = value
    elif t is dict:
        if "words" not in value:
            problems.append(Problem(path, "dictionary has no 'words' array (a word list is an array of words, "
                                          "or a dictionary with 'words' and an optional 'name')"))
            return None
        items = value["words"]
        if type(items) is not list:
            problems.append(Problem(path, "'words' is %s, expected an array" % type_name(items)))
            return None
        if "name" in value:
            title = value["name"]
            if type(title) is not str or title.strip() == "":
                problems.append(Problem(path, "'name' must be a non-empty string, found %s" % type_name(title)))
                return None
            name = title
    else:
        problems.append(Problem(path, "root is %s; a word list is an array of words, or a dictionary with a 'words' array"
                                % type_name(value)))
        return None
    if not items:
        problems.append(Problem(path, "word list '%s' is empty" % name))
        return None

    words = []
    append = words.append
    reported = 0
    unreported = 0
    for index, item in enumerate(items):
        if type(item) is str:
            # The common case, inline: an ASCII word of 2..40 letters.
            if item.isascii() and item.isalpha() and MIN_LETTERS <= len(item) <= MAX_LETTERS:
                append(item)
                continue
            text = item
            message = None
        elif type(item) is dict:
            text = item.get("word")
            message = None
            if type(text) is not str:
                message = "word %d: a word dictionary needs a string 'word', found %s" % (
                    index + 1, type_name(text) if "word" in item else "none")
            elif "clue" in item:
                clue = item["clue"]
                if type(clue) is not str:
                    message = "word %d '%s': 'clue' is %s, expected a string" % (index + 1, text, type_name(clue))
                elif len(clue) > MAX_CLUE:
                    message = "word %d '%s': clue has %d characters, at most %d" % (index + 1, text, len(clue), MAX_CLUE)
        else:
            text = None
            message = "word %d is %s, expected a string or a dictionary with 'word'" % (index + 1, type_name(item))
        if message is None:
            problem = word_problem(text)
            if problem is None:
                append(text)
                continue
            message = "word %d '%s' %s" % (index + 1, printable(text), problem)
        if reported < MAX_PROBLEMS_PER_LIST:
            problems.append(Problem(path, message))
            reported += 1
        else:
            unreported += 1
    if unreported:
        problems.append(Problem(path, "and %d more problems with words in this list" % unreported))
    return WordList(path, name, words)


# ---------------------------------------------------------------- identifiers

def is_product_id(text):
    if not text or len(text.encode("utf-8")) > 255:
        return False
    labels = text.split(".")
    if len(labels) < 2:
        return False
    for label in labels:
        if not label:
            return False
        for ch in label:
            if not (ch.isascii() and (ch.isalnum() or ch in "-_")):
                return False
    return True


def content_version(text):
    parts = text.split(".")
    if not parts or len(parts) > 8:
        return None
    numbers = []
    for part in parts:
        if not part or len(part) > 9 or not (part.isascii() and part.isdigit()):
            return None
        numbers.append(int(part))
    while len(numbers) > 1 and numbers[-1] == 0:
        numbers.pop()
    return tuple(numbers)


def is_language_tag(tag):
    parts = tag.split("-")
    first = parts[0]
    if not (2 <= len(first) <= 3 and first.isascii() and first.isalpha()):
        return False
    return all(1 <= len(p) <= 8 and p.isascii() and p.isalnum() for p in parts[1:])


def is_blank(text):
    return text.strip() == "" or all(unicodedata.category(c)[0] == "Z" for c in text)


def parse_manifest(value, entry, problems):
    """PackManifest.parse: a dict of the fields, or None when a required key is unusable."""
    if type(value) is not dict:
        problems.append(Problem(entry, "the manifest's root is %s, expected a dictionary" % type_name(value)))
        return None

    def get(key, kind, required):
        if key not in value:
            if required:
                problems.append(Problem(entry, "required key '%s' is missing" % key))
            return None
        item = value[key]
        if type(item) is not kind:
            problems.append(Problem(entry, "'%s' is %s, expected %s" % (
                key, type_name(item), "a string" if kind is str else "an integer")))
            return None
        return item

    manifest = {}
    number = get("FormatVersion", int, True)
    if number is not None:
        if number > SUPPORTED_FORMAT_VERSION:
            problems.append(Problem(entry, "FormatVersion %d is newer than this hangman supports (%d): update hangman to read this pack"
                                    % (number, SUPPORTED_FORMAT_VERSION)))
        elif number < 1:
            problems.append(Problem(entry, "FormatVersion %d is not a format version (1 is the first)" % number))
        else:
            manifest["FormatVersion"] = number
    text = get("ProductIdentifier", str, True)
    if text is not None:
        if is_product_id(text):
            manifest["ProductIdentifier"] = text
        else:
            problems.append(Problem(entry, "ProductIdentifier '%s' is not a reverse-DNS identifier (like com.example.words.ios)" % text))
    text = get("ContentVersion", str, True)
    if text is not None:
        version = content_version(text)
        if version is not None:
            manifest["ContentVersion"] = version
            manifest["ContentVersionText"] = text
        else:
            problems.append(Problem(entry, "ContentVersion '%s' is not dotted integers (like 1, 1.2 or 2.0.3)" % text))
    display = get("DisplayName", str, True)
    if display is not None:
        if is_blank(display):
            problems.append(Problem(entry, "DisplayName is empty"))
        manifest["DisplayName"] = display
    language = get("Language", str, False) or "en"
    if not is_language_tag(language):
        problems.append(Problem(entry, "Language '%s' is not a BCP 47 tag (like en, es or pt-BR)" % language))
    for key in ("Summary", "License", "Attribution"):
        get(key, str, False)
    count = get("WordCount", int, False)
    if count is not None:
        if count < 0:
            problems.append(Problem(entry, "WordCount %d is negative" % count))
        else:
            manifest["WordCount"] = count
    if "Files" in value:
        listed = value["Files"]
        if type(listed) is not dict:
            problems.append(Problem(entry, "'Files' is %s, expected a dictionary of path -> {SHA256, Size}" % type_name(listed)))
        else:
            records = {}
            for path in sorted(listed):
                item = listed[path]
                digest = item.get("SHA256") if type(item) is dict else None
                size = item.get("Size") if type(item) is dict else None
                if (type(digest) is not str or len(digest) != 64 or not all(c in "0123456789abcdefABCDEF" for c in digest)
                        or type(size) is not int or size < 0):
                    problems.append(Problem(entry, "Files['%s'] must be a dictionary with SHA256 (64 hex digits) and Size (an integer)" % path))
                    continue
                records[path] = (digest.lower(), size)
            manifest["Files"] = records
    if not all(k in manifest for k in ("FormatVersion", "ProductIdentifier", "ContentVersion", "DisplayName")):
        return None
    return manifest


# ---------------------------------------------------------------- the archive

REFUSED = [
    (b"\x37\x7a\xbc\xaf\x27\x1c", 0, "7z"),
    (b"Rar!\x1a\x07", 0, "RAR"),
    (b"xar!", 0, "xar"),
    (b"!<arch>\n", 0, "ar"),
    (b"070701", 0, "cpio"), (b"070702", 0, "cpio"), (b"070707", 0, "cpio"),
    (b"\xc7\x71", 0, "cpio"), (b"\x71\xc7", 0, "cpio"),
    (b"CD001", 0x8001, "ISO 9660"),
    (b"MSCF", 0, "cab"),
    (b"\x60\xea", 0, "arj"),
]

S_IFMT = 0o170000
ZIP_TYPES = {0o120000: "symlink", 0o020000: "chr", 0o060000: "blk", 0o010000: "fifo", 0o140000: "sock",
             0o040000: "dir", 0o100000: "reg"}


class Collector:
    """EntryCollector: hashes every file, parses word lists as they stream by, keeps special files."""

    def __init__(self):
        self.files = {}  # path -> [size, sha256 hex, bytes or None]
        self.lists = []
        self.problems = []
        self.saw_word_list_file = False
        self.had_word_problems = False
        self.parsed = set()

    def add(self, components, data, digest):
        if "__MACOSX" in components or components[-1].startswith("."):
            return
        path = "/".join(components)
        special = components[-1] in SPECIAL_NAMES
        self.files[path] = [len(data), digest, data if special else None]
        if not special and path.lower().endswith(".plist"):
            self.parse_word_list(path, data)

    def parse_word_list(self, path, data):
        self.parsed.add(path)
        self.saw_word_list_file = True
        before = len(self.problems)
        try:
            value = decode_plist(data)
        except PlistError as error:
            self.problems.append(Problem(path, "not a valid property list: %s" % error))
        else:
            word_list = parse_word_list(value, path, self.problems)
            if word_list is not None:
                self.lists.append(word_list)
        if len(self.problems) > before:
            self.had_word_problems = True

    def decode(self, path, problems):
        data = self.files[path][2]
        if data is None:
            return None
        try:
            return decode_plist(data)
        except PlistError as error:
            problems.append(Problem(path, "not a valid property list: %s" % error))
            return None

    def root_prefix(self):
        first = None
        for path in self.files:
            parts = path.split("/", 1)
            if len(parts) != 2:
                return ""
            if first is None:
                first = parts[0]
            elif first != parts[0]:
                return ""
        return first + "/" if first is not None else ""


class Reader:
    """ArchiveReader: entry checks and limits, shared by the tar and zip front ends."""

    def __init__(self, collector):
        self.collector = collector
        self.problems = []
        self.entries = 0
        self.total = 0
        self.seen = {}

    def entry(self, name, kind, shown_target=None):
        """Checks one entry's name and type; returns its components when its data should be read
        (a regular file), None otherwise. Raises Fatal past the entry limit."""
        self.entries += 1
        if self.entries > MAX_ENTRIES:
            raise Fatal(Problem(None, "archive has more than %d entries" % MAX_ENTRIES, fatal=True))
        shown = printable_name(name)
        components, problem = check_name(name)
        if problem:
            self.problems.append(Problem(shown, problem))
            return None
        type_problem = {
            "hardlink": "hard link to '%s': links are not accepted" % printable_name(shown_target or "?"),
            "symlink": "symbolic link to '%s': links are not accepted" % printable_name(shown_target or "?"),
            "chr": "character device: only files and folders are accepted",
            "blk": "block device: only files and folders are accepted",
            "fifo": "FIFO (named pipe): only files and folders are accepted",
            "sock": "socket: only files and folders are accepted",
            "unknown": "entry of unknown type: only files and folders are accepted",
        }.get(kind)
        if type_problem:
            self.problems.append(Problem(shown, type_problem))
            return None
        if components is None:
            if kind != "dir":
                self.problems.append(Problem(shown, "a file without a name"))
            return None
        path = "/".join(components)
        folded = fold_name(path)
        first = self.seen.get(folded)
        if first is not None:
            same = first == path or unicodedata.normalize("NFC", first) == unicodedata.normalize("NFC", path)
            detail = "appears twice" if same else (
                "repeats '%s' (names differing only by case or Unicode normalisation collide)" % first)
            self.problems.append(Problem(shown, "duplicate entry: %s" % detail))
            return None
        self.seen[folded] = path
        if kind == "dir":
            return None
        return components

    def read_data(self, stream, declared, shown):
        """Reads an entry in chunks, stopping as soon as a limit is passed; returns (bytes, sha256)."""
        if declared is not None and declared > MAX_ENTRY_SIZE:
            raise Fatal(Problem(shown, "entry is %d bytes, more than the limit of %d per entry" % (declared, MAX_ENTRY_SIZE), fatal=True))
        parts = []
        size = 0
        sha = hashlib.sha256()
        read = stream.read
        while True:
            try:
                chunk = read(CHUNK)
            except Exception as error:
                raise Fatal(Problem(shown, "archive is truncated or corrupt: %s" % (str(error) or type(error).__name__), fatal=True)) from None
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_ENTRY_SIZE:
                raise Fatal(Problem(shown, "entry inflates past the limit of %d bytes per entry" % MAX_ENTRY_SIZE, fatal=True))
            if self.total + size > MAX_TOTAL_SIZE:
                raise Fatal(Problem(shown, "archive inflates past the limit of %d bytes in all" % MAX_TOTAL_SIZE, fatal=True))
            sha.update(chunk)
            parts.append(chunk)
        self.total += size
        return (parts[0] if len(parts) == 1 else b"".join(parts)), sha.hexdigest()

    # -- tar

    def read_tar(self, data, mode):
        try:
            archive = tarfile.open(fileobj=io.BytesIO(data), mode=mode, encoding="utf-8", errors="surrogateescape")
        except Exception as error:
            raise Fatal(Problem(None, "archive is truncated or corrupt: %s" % (str(error) or type(error).__name__), fatal=True)) from None
        with archive:
            while True:
                try:
                    member = archive.next()
                except Exception as error:
                    raise Fatal(Problem(None, "archive is truncated or corrupt: %s" % (str(error) or type(error).__name__), fatal=True)) from None
                if member is None:
                    break
                archive.members = []  # keep no TarInfo list: entries are handled one by one
                if member.islnk():
                    kind, target = "hardlink", member.linkname
                elif member.issym():
                    kind, target = "symlink", member.linkname
                elif member.ischr():
                    kind, target = "chr", None
                elif member.isblk():
                    kind, target = "blk", None
                elif member.isfifo():
                    kind, target = "fifo", None
                elif member.isdir():
                    kind, target = "dir", None
                elif member.isreg():
                    kind, target = "reg", None
                else:
                    kind, target = "unknown", None
                components = self.entry(member.name, kind, target)
                if components is None:
                    continue
                shown = printable_name(member.name)
                if member.issparse():
                    self.problems.append(Problem(shown, "sparse entries are not accepted"))
                    return
                stream = archive.extractfile(member)
                content, digest = self.read_data(stream, member.size, shown)
                self.collector.add(components, content, digest)
            self.check_tar_end(archive)

    def check_tar_end(self, archive):
        """tarfile stops quietly at a truncated or damaged header; libarchive does not. Look at
        where it stopped, then drain the compressed stream to its end (bounded by the total limit)."""
        stream = archive.fileobj
        try:
            stream.seek(archive.offset)
            block = stream.read(tarfile.BLOCKSIZE)
            if 0 < len(block) < tarfile.BLOCKSIZE:
                raise Fatal(Problem(None, "archive is truncated or corrupt: truncated tar header", fatal=True))
            if block and block.count(0) != len(block):
                raise Fatal(Problem(None, "archive is truncated or corrupt: damaged tar header at offset %d" % archive.offset, fatal=True))
            budget = MAX_TOTAL_SIZE - self.total
            while True:
                chunk = stream.read(CHUNK)
                if not chunk:
                    break
                budget -= len(chunk)
                if budget < 0:
                    raise Fatal(Problem(None, "archive inflates past the limit of %d bytes in all" % MAX_TOTAL_SIZE, fatal=True))
        except Fatal:
            raise
        except Exception as error:
            raise Fatal(Problem(None, "archive is truncated or corrupt: %s" % (str(error) or type(error).__name__), fatal=True)) from None

    # -- zip

    def read_zip(self, data):
        try:
            archive = zipfile.ZipFile(io.BytesIO(data))
        except UnicodeDecodeError:
            raise Fatal(Problem(None, "an entry name is marked UTF-8 but is not valid UTF-8", fatal=True)) from None
        except Exception as error:
            raise Fatal(Problem(None, "archive is truncated or corrupt: %s" % (str(error) or type(error).__name__), fatal=True)) from None
        with archive:
            for info in archive.infolist():
                name = info.orig_filename
                if not info.flag_bits & 0x800:
                    name = name.encode("cp437").decode("utf-8", "surrogateescape")
                mode = info.external_attr >> 16
                kind = None
                if info.create_system == 3 and mode & S_IFMT:
                    kind = ZIP_TYPES.get(mode & S_IFMT, "unknown")
                if kind is None or kind == "reg":
                    kind = "dir" if name.endswith("/") else "reg"
                target = None
                if kind == "symlink":
                    try:
                        target = archive.read(info)[:1024].decode("utf-8", "surrogateescape") if info.file_size <= 4096 else "?"
                    except Exception:
                        target = "?"
                components = self.entry(name, kind, target)
                if components is None:
                    continue
                shown = printable_name(name)
                if info.file_size > MAX_ENTRY_SIZE:
                    raise Fatal(Problem(shown, "entry is %d bytes, more than the limit of %d per entry" % (info.file_size, MAX_ENTRY_SIZE), fatal=True))
                try:
                    stream = archive.open(info)
                except Exception as error:
                    raise Fatal(Problem(shown, "archive is truncated or corrupt: %s" % (str(error) or type(error).__name__), fatal=True)) from None
                with stream:
                    content, digest = self.read_data(stream, info.file_size, shown)
                self.collector.add(components, content, digest)


def read_archive(data, collector):
    """Returns (archive problems, fatal?)."""
    reader = Reader(collector)
    if len(data) > MAX_ARCHIVE_SIZE:
        return [Problem(None, "archive is %d bytes, more than the limit of %d" % (len(data), MAX_ARCHIVE_SIZE), fatal=True)], True
    for magic, offset, name in REFUSED:
        if data[offset:offset + len(magic)] == magic:
            return [Problem(None, "%s archives are not accepted: a pack is a tar (plain, gzip, bzip2, xz or zstd) or zip archive" % name, fatal=True)], True
    if not data:
        return [Problem(None, "file is empty", fatal=True)], True
    try:
        if data.startswith(b"PK\x03\x04") or data.startswith(b"PK\x05\x06"):
            reader.read_zip(data)
        elif data.startswith(b"\x1f\x8b"):
            reader.read_tar(data, "r:gz")
        elif data.startswith(b"BZh"):
            reader.read_tar(data, "r:bz2")
        elif data.startswith(b"\xfd7zXZ\x00"):
            reader.read_tar(data, "r:xz")
        elif data.startswith(b"\x28\xb5\x2f\xfd"):
            return [Problem(None, "zstd-compressed archives are not supported by this Python verifier (no zstd in the standard library)", fatal=True)], True
        elif data[257:262] == b"ustar" or looks_like_v7_tar(data):
            reader.read_tar(data, "r:")
        else:
            return [Problem(None, "not a tar or zip archive (a pack is a tar, plain or compressed with gzip, bzip2, xz or zstd, or a zip)", fatal=True)], True
    except Fatal as fatal:
        return reader.problems + [fatal.problem], True
    return reader.problems, False


def looks_like_v7_tar(data):
    """An old tar header without the ustar magic: its checksum field matches the block."""
    if len(data) < 512:
        return False
    try:
        stored = int(data[148:156].replace(b"\x00", b" ").strip() or b"-1", 8)
    except ValueError:
        return False
    block = bytearray(data[:512])
    block[148:156] = b" " * 8
    return stored == sum(block)


# ---------------------------------------------------------------- putting it together

def verify_bytes(data):
    """PackVerifier.verify: (problems, word count or None)."""
    collector = Collector()
    archive_problems, fatal = read_archive(data, collector)
    problems = list(archive_problems)
    if fatal:
        return problems + collector.problems, None

    files = collector.files
    root = collector.root_prefix()

    def at(relative):
        path = root + relative
        return path if path in files else None

    hosted = False
    content_root = ""
    manifest_path = at("Info.plist")
    content_info_path = None
    if manifest_path is None and at("ContentInfo.plist") is not None:
        hosted = True
        content_info_path = at("ContentInfo.plist")
        if any(p.startswith(root + "Contents/") for p in files):
            content_root = "Contents/"
        manifest_path = at(content_root + "Info.plist")
    signature_path = at(content_root + "Signature.plist") or at("Signature.plist")
    special = {p for p in (manifest_path, content_info_path, signature_path) if p is not None}

    for path in sorted(files):
        if path not in special and path.lower().endswith(".plist") and path not in collector.parsed:
            if files[path][2] is not None:
                collector.parse_word_list(path, files[path][2])
    problems += collector.problems
    lists = sorted(collector.lists, key=lambda word_list: word_list.path)

    manifest = None
    if manifest_path is not None:
        value = collector.decode(manifest_path, problems)
        if value is not None:
            manifest = parse_manifest(value, manifest_path, problems)
    if hosted:
        manifest = hosted_manifest(content_info_path, collector, manifest, lists, problems)
    elif manifest_path is None:
        problems.append(Problem(root[:-1] if root else None,
                                "no Info.plist manifest (or ContentInfo.plist) at the top of the pack"))

    if not lists and not collector.saw_word_list_file:
        problems.append(Problem(None, "no word list: a pack needs at least one *.plist of words beside its manifest"))
    check_duplicates(lists, problems)

    if manifest is None:
        return problems, None
    word_count = sum(len(word_list.words) for word_list in lists)
    declared = manifest.get("WordCount")
    if declared is not None and declared != word_count and not collector.had_word_problems:
        problems.append(Problem(manifest_path, "WordCount is %d but the word lists hold %d words" % (declared, word_count)))
    listed = manifest.get("Files")
    if listed is not None:
        exclude = special - ({content_info_path} if content_info_path else set())
        check_files(listed, files, root, exclude, problems)
    if signature_path is not None:
        collector.decode(signature_path, problems)  # decoded, not verified: no Ed25519 in the stdlib
    return problems, word_count


def hosted_manifest(path, collector, manifest, lists, problems):
    value = collector.decode(path, problems)
    if value is None:
        return manifest
    if type(value) is not dict:
        problems.append(Problem(path, "root is %s, expected a dictionary" % type_name(value)))
        return manifest
    product = value.get("IAPProductIdentifier")
    if type(product) is not str:
        problems.append(Problem(path, "'IAPProductIdentifier' (a string) is missing"))
        return manifest
    version_text = value.get("ContentVersion")
    if type(version_text) is not str:
        problems.append(Problem(path, "'ContentVersion' (a string) is missing"))
        return manifest
    if not is_product_id(product):
        problems.append(Problem(path, "IAPProductIdentifier '%s' is not a reverse-DNS identifier" % product))
        return manifest
    version = content_version(version_text)
    if version is None:
        problems.append(Problem(path, "ContentVersion '%s' is not dotted integers (like 1, 1.2 or 2.0.3)" % version_text))
        return manifest
    if manifest is not None:
        if manifest["ProductIdentifier"] != product or manifest["ContentVersion"] != version:
            problems.append(Problem(path, "says %s %s but Info.plist says %s %s" % (
                product, version_text, manifest["ProductIdentifier"], manifest["ContentVersionText"])))
        return manifest
    return {"FormatVersion": 1, "ProductIdentifier": product, "ContentVersion": version,
            "ContentVersionText": version_text, "DisplayName": lists[0].name if lists else product}


def check_duplicates(lists, problems):
    """Words the game cannot tell apart: NFC (valid words already are) then lower case."""
    seen = set()
    for word_list in lists:
        seen.update(map(str.lower, word_list.words))
    if len(seen) == sum(len(word_list.words) for word_list in lists):
        return  # the common case: no duplicates, one pass through C
    seen = set()
    add = seen.add
    repeats = []  # (list index, word index)
    for list_index, word_list in enumerate(lists):
        for word_index, word in enumerate(word_list.words):
            folded = word.lower()
            if folded in seen:
                repeats.append((list_index, word_index))
            else:
                add(folded)
    if not repeats:
        return
    wanted = {lists[li].words[wi].lower() for li, wi in repeats}
    first = {}
    for list_index, word_list in enumerate(lists):
        for word in word_list.words:
            folded = word.lower()
            if folded in wanted and folded not in first:
                first[folded] = (list_index, word)
    reported = {}
    for list_index, word_index in repeats:
        word = lists[list_index].words[word_index]
        first_list, first_word = first[word.lower()]
        count = reported.get(list_index, 0)
        reported[list_index] = count + 1
        if count >= MAX_PROBLEMS_PER_LIST:
            continue
        where = "earlier in this list" if first_list == list_index else "in %s" % lists[first_list].path
        problems.append(Problem(lists[list_index].path, "duplicate word '%s' (the game cannot tell it from '%s' %s)" % (
            printable(word), printable(first_word), where)))
    for list_index in sorted(reported):
        if reported[list_index] > MAX_PROBLEMS_PER_LIST:
            problems.append(Problem(lists[list_index].path, "and %d more duplicate words in this list"
                                    % (reported[list_index] - MAX_PROBLEMS_PER_LIST)))


def check_files(listed, files, root, exclude, problems):
    for path in sorted(listed):
        digest, size = listed[path]
        record = files.get(root + path)
        if record is None:
            problems.append(Problem(root + path, "listed in the manifest's Files but not in the archive"))
            continue
        if record[0] != size:
            problems.append(Problem(root + path, "is %d bytes but the manifest's Files says %d" % (record[0], size)))
        elif record[1] != digest:
            problems.append(Problem(root + path, "SHA-256 is %s but the manifest's Files says %s: the file was changed after the pack was built"
                                    % (record[1], digest)))
    for path in sorted(files):
        if path not in exclude and path[len(root):] not in listed:
            problems.append(Problem(path, "not listed in the manifest's Files: the file was added after the pack was built"))


def verify_file(path):
    """(problems, word count or None); a missing file is a problem marked `missing`."""
    if not os.path.exists(path):
        return [Problem(None, "no such file", missing=True)], None
    if os.path.isdir(path):
        return [Problem(None, "is a folder, not a pack archive (to check a source folder, run 'hangman pack build DIR -o FILE')")], None
    try:
        size = os.path.getsize(path)
        if size > MAX_ARCHIVE_SIZE:
            return [Problem(None, "file is %d bytes, more than the limit of %d" % (size, MAX_ARCHIVE_SIZE))], None
        with open(path, "rb") as handle:
            data = handle.read(MAX_ARCHIVE_SIZE + 1)
    except OSError as error:
        return [Problem(None, "cannot read the file: %s" % error)], None
    if len(data) > MAX_ARCHIVE_SIZE:
        return [Problem(None, "file is more than the limit of %d bytes" % MAX_ARCHIVE_SIZE)], None
    return verify_bytes(data)


def main(argv):
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: verify_pack.py FILE...", file=sys.stderr)
        return EX_USAGE if not argv else EX_OK
    code = EX_OK
    out = []
    for path in argv:
        problems, words = verify_file(path)
        if any(p.missing for p in problems):
            code = EX_NOINPUT
        elif (problems or words is None) and code == EX_OK:
            code = EX_DATAERR
        if not problems and words is not None:
            out.append("%s: ok: %d words" % (path, words))
        else:
            out.extend("%s: %s" % (path, problem) for problem in problems)
    sys.stdout.write("\n".join(out) + "\n")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
