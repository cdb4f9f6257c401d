//! The properties every game of the project keeps, written once against
//! [`tripoley_game::Game`] and run by Tripoley's and Napalm's property tests
//! (the `basic_tests` of `OpenSpiel`): a random game ends, every legal action is
//! accepted, an illegal one (or one out of turn) is refused and changes
//! nothing, chips are conserved, views hide what they must, and replaying
//! the steps reproduces the game and its events. What only one game has (its
//! cards, its record's file) each game's tests check in the `check` they pass.

use std::ops::ControlFlow;

use rand_core::Rng as _;
use tripoley_cards::seeded_rng;
use tripoley_game::{Bot, Dice, Game, Seat, Turn, play};

/// Steps after which a game that has not ended is a bug.
const MAX_STEPS: usize = 100_000;

/// Plays `game` to its end with [`tripoley_game::play`]: chance and `bots`
/// draw from one RNG seeded with `seed`; `each` sees the game after every
/// step, the step and its events. Returns the steps.
pub fn play_out<G: Game>(
    game: &mut G,
    seed: u64,
    bots: &mut [Box<dyn Bot<G>>],
    mut each: impl FnMut(&G, &G::Step, &[G::Event]),
) -> Vec<G::Step> {
    let mut rng = seeded_rng(seed);
    let mut steps = Vec::new();
    play(game, bots, Dice::shared(&mut rng), |game, step, events| {
        each(game, step, events);
        steps.push(step.clone());
        if steps.len() < MAX_STEPS {
            ControlFlow::Continue(())
        } else {
            ControlFlow::Break(())
        }
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        game.turn(),
        Turn::Over,
        "the game did not end within {MAX_STEPS} steps"
    );
    steps
}

/// What [`check_random_game`] played: the game at its end, its steps and
/// their events (the start's events are the caller's).
pub struct Played<G: Game> {
    /// The game, over.
    pub game: G,
    /// Every step, as a record keeps them.
    pub steps: Vec<G::Step>,
    /// Every step's events, in order.
    pub events: Vec<G::Event>,
}

/// Plays `start` to its end as [`play_out`] does (seat `i` played by
/// `bots[i]`) and checks the properties every game keeps: chips conserved
/// after every step; every `every` steps, each legal action applies (on a
/// copy; all of them when there are at most 30, else the first and the
/// last), each of `probes` that is not legal is refused, a legal action of
/// another seat is refused, a refusal changes nothing, and no seat tells
/// the game from a world it cannot know (`worlds_look_alike`); at the end,
/// the steps replayed on `start` give the same game and events. `check`
/// adds a game's own checks after every step.
pub fn check_random_game<G: Game>(
    start: &G,
    seed: u64,
    probes: &[G::Action],
    every: usize,
    bots: &mut [Box<dyn Bot<G>>],
    mut check: impl FnMut(&G, &[G::Event]),
) -> Played<G> {
    let mut game = start.clone();
    let mut events = Vec::new();
    let mut taken = 0;
    let steps = play_out(&mut game, seed, bots, |game, _, step_events| {
        taken += 1;
        assert_eq!(game.chips_in_play(), game.total_chips(), "chips conserved");
        if taken % every.max(1) == 0 {
            legal_accepted(game);
            illegal_refused(game, probes);
            worlds_look_alike(game, (taken % game.players()) as Seat, seed ^ taken as u64);
        }
        check(game, step_events);
        events.extend_from_slice(step_events);
    });
    let mut replayed = start.clone();
    let mut replayed_events = Vec::new();
    for step in &steps {
        replayed
            .take_step(step, &mut replayed_events)
            .expect("a recorded step replays");
    }
    assert_eq!(replayed, game, "replay reproduces the game");
    assert_eq!(replayed_events, events, "replay reproduces every event");
    Played {
        game,
        steps,
        events,
    }
}

/// Each legal action of the seat to act applies, chips conserved.
fn legal_accepted<G: Game>(game: &G) {
    let Turn::Seat(seat) = game.turn() else {
        return;
    };
    let legal = game.legal_actions();
    assert!(!legal.is_empty(), "seat {seat} is asked with no answer");
    let tried: Vec<G::Action> = if legal.len() <= 30 {
        legal
    } else {
        vec![legal[0], legal[legal.len() - 1]]
    };
    for action in tried {
        let mut copy = game.clone();
        copy.take_step(&G::act_step(seat, action), &mut Vec::new())
            .unwrap_or_else(|e| panic!("legal {action:?} refused: {e}"));
        assert_eq!(copy.chips_in_play(), copy.total_chips());
    }
}

/// Views hide what they must: a world `seat` cannot tell from this one
/// ([`Game::sample_world`], its hidden cards dealt again) gives it and a
/// spectator the same views and, at its decision, the same legal actions
/// (whose turn it is otherwise may be hidden: who holds the card a run
/// waits on, M9b). A view that showed a card the seat may not know would
/// differ between the two worlds (the samplers deal every unseen card
/// again), so this is the pair-of-games test of hidden information; the
/// suite asks it of each seat in turn, at every checked step of every
/// random game. The world is a whole game too: it plays on legally to its
/// next chance (at most [`WORLD_STEPS`] steps), as a search's playout
/// plays it.
fn worlds_look_alike<G: Game>(game: &G, seat: Seat, seed: u64) {
    let mut rng = seeded_rng(seed);
    let mut world = game.sample_world(seat, &mut rng);
    assert_eq!(
        world.view(Some(seat)),
        game.view(Some(seat)),
        "seat {seat} tells a world it may not know from the real one"
    );
    assert_eq!(
        world.view(None),
        game.view(None),
        "a spectator tells them apart"
    );
    assert_eq!(
        world.chips_in_play(),
        world.total_chips(),
        "chips conserved"
    );
    if game.turn() == Turn::Seat(seat) {
        assert_eq!(
            world.legal_actions(),
            game.legal_actions(),
            "seat {seat}'s choices depend on cards it cannot see"
        );
    }
    for _ in 0..WORLD_STEPS {
        let Turn::Seat(to_act) = world.turn() else {
            break;
        };
        let legal = world.legal_actions();
        let pick = (u64::from(rng.next_u32()) * legal.len() as u64) >> 32;
        let action = legal[usize::try_from(pick).expect("below the length")];
        world
            .take_step(&G::act_step(to_act, action), &mut Vec::new())
            .unwrap_or_else(|e| panic!("{action:?}, legal in a sampled world, refused: {e}"));
        assert_eq!(
            world.chips_in_play(),
            world.total_chips(),
            "chips conserved"
        );
    }
}

/// Steps a sampled world is played on by [`worlds_look_alike`].
const WORLD_STEPS: usize = 30;

/// Probes that are not legal, and a legal action out of turn, are refused
/// and change nothing.
fn illegal_refused<G: Game>(game: &G, probes: &[G::Action]) {
    let Turn::Seat(seat) = game.turn() else {
        return;
    };
    let legal = game.legal_actions();
    let mut copy = game.clone();
    for &wrong in probes.iter().filter(|a| !legal.contains(a)) {
        assert!(
            copy.take_step(&G::act_step(seat, wrong), &mut Vec::new())
                .is_err(),
            "{wrong:?} accepted from seat {seat}"
        );
        assert_eq!(&copy, game, "a refused action changed the game");
    }
    let other = ((usize::from(seat) + 1) % game.players()) as Seat;
    assert!(
        copy.take_step(&G::act_step(other, legal[0]), &mut Vec::new())
            .is_err(),
        "seat {other} acted out of turn"
    );
    assert_eq!(&copy, game, "a refused action changed the game");
}
