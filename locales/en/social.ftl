# Around the table: chat, the public list of tables, freeing a seat, the
# invitation's QR code (web/chat.js, web/tables.js, web/seats.js, web/qr.js).

## Chat

chat-title = Chat
chat-empty = Nobody has said anything yet.
chat-message-label = Message to the table
chat-send = Send
chat-spectator = Take a seat to chat. You can read what the players say.
chat-said = { $name } says: { $text }
chat-too-fast = You are chatting too fast: wait a few seconds.
chat-refused = Not sent: { $reason }
chat-mute-summary = Mute someone
chat-mute = Mute { $name }
chat-unmute = Unmute { $name }
chat-nobody-to-mute = Nobody else has written yet.
chat-hidden = { $count ->
    [one] One message from someone you muted is hidden.
   *[other] { $count } messages from people you muted are hidden.
}
chat-unread = { $count ->
    [one] 1 new message in the chat
   *[other] { $count } new messages in the chat
}
chat-new-mark = New
chat-reactions = Quick reactions
chat-react = Send { $emoji }

## The public list of tables

public-checkbox = List this table publicly, so anyone can join
public-title = Open tables
public-none = No public table is waiting for players right now.
public-refresh = Refresh
public-more = Show more tables
public-error = The list of tables cannot be shown: { $reason }
public-join = Join
public-join-label = Join table { $game }
public-seats = { $taken } of { $seats } seats taken
public-chips = { $chips } chips each
public-deals = { $deals ->
    [one] one deal
   *[other] { $deals } deals
}
public-turn = { $seconds } seconds a turn
public-no-timer = no turn timer
public-tokens = { $tokens } tokens win
public-bot-random = a random bot plays empty seats
public-game-napalm = Napalm poker
public-preset-pagat = Tripoley (pagat.com rules)
public-preset-tripoley = Tripoley (boxed game)
public-preset-michigan-casino = Michigan Rummy (casino rules)
public-preset-rummoli = Rummoli
public-preset-cosmo = Cosmo (no poker)
public-rule-ante = ante { $chips }
public-rule-dealer-ante = the dealer antes { $chips }
public-rule-bet-limit = bets up to { $chips }
public-rule-max-raises = at most { $raises } raises
public-rule-no-raise-limit = no limit on raises
public-rule-misplays-penalised = misplays cost chips
public-rule-misplays-forbidden = no misplays
public-rule-spare-unused = no spare hand
public-rule-spare-dealer = the dealer may swap or auction the spare hand
public-rule-poker-betting = poker with betting
public-rule-poker-pool = poker without betting
public-rule-poker-none = no poker
public-rule-pay-in-play = pay cards collected in play
public-rule-pay-stage1 = pay cards collected first
public-rule-ace-high = aces always high
public-rule-ace-low = A-2-3-4-5 is a straight
public-rule-final-pot = the last chips go to a final poker hand
public-rule-final-keep = chips left at the end stay on the board
public-more-rules = { $count ->
    [one] one more house rule
   *[other] { $count } more house rules
}

## The host freeing a seat

seat-free = Free { $name }'s seat
seat-free-game = Freeing it gives the seat to a bot for the rest of the game.
seat-removed = The host removed you from the table before the game. You can watch, or take a seat that is open.
seat-freed = The host gave your seat away while you were away. You can watch, or take a seat that is open.

## The invitation's QR code

qr-caption = Phones at the same table can scan this to join.
qr-label = QR code of the invite link
qr-failed = The QR code cannot be drawn here: copy the link instead.
