"""Rust source read as code alone (python3, standard library only): what scripts/check-imports.py
and scripts/function-lengths.py share. Comments and literals are blanked character by character,
so that every offset and line number stays that of the file."""
import re

LITERAL = re.compile(r'//[^\n]*|/\*.*?\*/|b?r(#*)".*?"\1|b?"(?:\\.|[^"\\])*"|'
                     r"b?'(?:\\.|[^'\\])'", re.S)
TEST_MOD = r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{"
SKIPPED = {True: re.compile(TEST_MOD + r"|macro_rules!\s*\w+\s*\{"), False: re.compile(TEST_MOD)}


def blank(text):
    """`text` with every character but its line breaks a space."""
    return re.sub(r"[^\n]", " ", text)


def block_end(code, j):
    """The index of the brace that closes the one at `j`."""
    depth = 0
    while j < len(code) - 1:
        depth += {"{": 1, "}": -1}.get(code[j], 0)
        if depth == 0:
            break
        j += 1
    return j


def strip(text, macro_bodies=True):
    """The code alone: comments, literals, test modules, macro bodies (unless `macro_bodies` is
    false: then kept) and `pub(in path)` blanked."""
    code = LITERAL.sub(lambda m: blank(m.group()), text)
    for m in reversed(list(SKIPPED[macro_bodies].finditer(code))):
        j = block_end(code, m.end() - 1)
        code = code[:m.start()] + blank(code[m.start():j + 1]) + code[j + 1:]
    return re.sub(r"pub\s*\(\s*in\s+[\w:]+\s*\)", "pub", code)
