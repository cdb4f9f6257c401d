mod common;
use tripoley_engine::{Preset, Rules};

#[test]
fn random_games_of_every_preset_finish() {
    for preset in Preset::ALL {
        let rules = Rules::preset(preset);
        for players in rules.min_players..=rules.max_players {
            for seed in 0..20 {
                let (_, game, _) = common::play_random(&rules, players as usize, seed, |g, _| {
                    assert_eq!(
                        g.chips_in_play(),
                        g.total_chips(),
                        "{preset} {players} {seed}"
                    );
                });
                assert!(game.standings().is_some());
            }
        }
    }
}
