#!/usr/bin/env python3
"""A Tripoley bot for `tripoley arena|sim --bots exec:'python3 examples/lowest_card_bot.py'`.

It speaks the line protocol of docs/bot-protocol.md: one JSON request per line
on standard input, one JSON action per line on standard output. Standard
library only. Its play is simple: it leads its lowest card, sets apart its five
lowest cards, never bets (checks, calls, passes, keeps its hand) and always
follows. Debugging output must go to standard error, never to standard output.
"""

import json
import sys

RANKS = "23456789TJQKA"


def rank(card):
    """The rank of a card text such as "10H", "7C" or "AS", 0 for a two."""
    text = card[:-1]
    return RANKS.index("T" if text == "10" else text)


def answer(request):
    decision = request["decision"]
    # A decision is {"kind": {fields}}, or a bare string for one without fields.
    kind = decision if isinstance(decision, str) else next(iter(decision))
    if kind == "choose_five":
        hand = decision["choose_five"]["from"]
        return {"choose": sorted(hand, key=rank)[:5]}
    if kind == "lead":
        return {"lead": min(decision["lead"]["cards"], key=rank)}
    legal = request["legal"]
    for preferred in ("check", "call", "pass", "keep", "play"):
        if preferred in legal:
            return preferred
    return legal[0]


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        request = json.loads(line)
        print(json.dumps(answer(request)), flush=True)


if __name__ == "__main__":
    main()
