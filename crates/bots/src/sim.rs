//! The self-play simulator: many games between bots, summarised.
