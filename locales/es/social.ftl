# Alrededor de la mesa: el chat, la lista pública de mesas, liberar un
# asiento, el código QR de la invitación.

## Chat

chat-title = Chat
chat-empty = Todavía nadie ha escrito nada.
chat-message-label = Mensaje para la mesa
chat-send = Enviar
chat-spectator = Siéntate para escribir en el chat. Puedes leer lo que dicen los jugadores.
chat-said = { $name } dice: { $text }
chat-too-fast = Estás escribiendo demasiado rápido: espera unos segundos.
chat-refused = No se envió: { $reason }
chat-mute-summary = Silenciar a alguien
chat-mute = Silenciar a { $name }
chat-unmute = Dejar de silenciar a { $name }
chat-nobody-to-mute = Nadie más ha escrito todavía.
chat-hidden = { $count ->
    [one] Hay un mensaje oculto de alguien a quien silenciaste.
   *[other] Hay { $count } mensajes ocultos de personas a las que silenciaste.
}
chat-unread = { $count ->
    [one] 1 mensaje nuevo en el chat
   *[other] { $count } mensajes nuevos en el chat
}
chat-new-mark = Nuevo
chat-reactions = Reacciones rápidas
chat-react = Enviar { $emoji }

## La lista pública de mesas

public-checkbox = Mostrar esta mesa en la lista pública, para que cualquiera pueda unirse
public-title = Mesas abiertas
public-none = Ahora mismo no hay ninguna mesa pública esperando jugadores.
public-refresh = Actualizar
public-more = Ver más mesas
public-error = No se puede mostrar la lista de mesas: { $reason }
public-join = Unirse
public-join-label = Unirse a la mesa de { $game }
public-seats = { $taken } de { $seats } asientos ocupados
public-chips = { $chips } fichas cada uno
public-deals = { $deals ->
    [one] una mano
   *[other] { $deals } manos
}
public-turn = { $seconds } segundos por turno
public-no-timer = sin límite de tiempo
public-tokens = gana quien llegue a { $tokens } puntos
public-bot-random = un bot al azar juega los asientos vacíos
public-game-napalm = Póquer Napalm
public-preset-pagat = Tripoley (reglas de pagat.com)
public-preset-tripoley = Tripoley (juego de caja)
public-preset-michigan-casino = Michigan Rummy (reglas de casino)
public-preset-rummoli = Rummoli
public-preset-cosmo = Cosmo (sin póquer)
public-rule-ante = apuesta inicial de { $chips }
public-rule-dealer-ante = el que reparte pone { $chips }
public-rule-bet-limit = apuestas de hasta { $chips }
public-rule-max-raises = como mucho { $raises } subidas
public-rule-no-raise-limit = subidas sin límite
public-rule-misplays-penalised = las jugadas irregulares cuestan fichas
public-rule-misplays-forbidden = sin jugadas irregulares
public-rule-spare-unused = sin mano de reserva
public-rule-spare-dealer = el que reparte puede cambiar o subastar la mano de reserva
public-rule-poker-betting = póquer con apuestas
public-rule-poker-pool = póquer sin apuestas
public-rule-poker-none = sin póquer
public-rule-pay-in-play = las cartas de pago se cobran al jugarlas
public-rule-pay-stage1 = las cartas de pago se cobran primero
public-rule-ace-high = el as siempre es alto
public-rule-ace-low = A-2-3-4-5 es escalera
public-rule-final-pot = las últimas fichas se juegan en una mano final de póquer
public-rule-final-keep = las fichas que quedan al final se quedan en el tablero
public-more-rules = { $count ->
    [one] una regla de la casa más
   *[other] { $count } reglas de la casa más
}

## El anfitrión libera un asiento

seat-free = Liberar el asiento de { $name }
seat-free-game = Si lo liberas, un bot jugará ese asiento el resto de la partida.
seat-removed = El anfitrión te quitó de la mesa antes de la partida. Puedes mirar la partida o sentarte en un asiento libre.
seat-freed = El anfitrión liberó tu asiento mientras no estabas. Puedes mirar la partida o sentarte en un asiento libre.

## El código QR de la invitación

qr-caption = Los móviles de la misma mesa pueden escanearlo para unirse.
qr-label = Código QR del enlace de invitación
qr-failed = Aquí no se puede dibujar el código QR: copia el enlace.
