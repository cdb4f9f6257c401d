//! Lookup tables over 13-bit rank masks, built at compile time.

/// `1 + index of the top card` of the best straight in a rank mask, 0 if none.
/// The wheel (A-2-3-4-5) counts, with the five (index 3) as its top card.
pub(crate) static STRAIGHT_TOP: [u8; 8192] = build_straight_top();

/// The mask of the (at most) five highest ranks of a rank mask.
pub(crate) static TOP_FIVE: [u16; 8192] = build_top_five();

/// Ranks 2, 3, 4, 5 and A: the wheel.
pub(crate) const WHEEL: u32 = 0b1_0000_0000_1111;

/// The rank mask of the straight whose top card has index `top` (3 = the wheel).
pub(crate) const fn straight_mask(top: u32) -> u32 {
    if top == 3 {
        WHEEL
    } else {
        0b11111 << (top - 4)
    }
}

const fn build_straight_top() -> [u8; 8192] {
    let mut t = [0u8; 8192];
    let mut m = 0usize;
    while m < 8192 {
        let mut top = 12u32;
        while top >= 3 {
            let s = straight_mask(top) as usize;
            if m & s == s {
                t[m] = top as u8 + 1;
                break;
            }
            top -= 1;
        }
        m += 1;
    }
    t
}

const fn build_top_five() -> [u16; 8192] {
    let mut t = [0u16; 8192];
    let mut m = 0usize;
    while m < 8192 {
        let mut v = m as u32;
        while v.count_ones() > 5 {
            v &= v - 1;
        }
        t[m] = v as u16;
        m += 1;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straights_and_top_five() {
        assert_eq!(STRAIGHT_TOP[0b1_1111_0000_0000], 13); // 10-J-Q-K-A
        assert_eq!(STRAIGHT_TOP[WHEEL as usize], 4); // 5-high
        assert_eq!(STRAIGHT_TOP[0b1_0000_0001_1111], 5); // 2-6 beats the wheel
        assert_eq!(STRAIGHT_TOP[0b1_0000_0001_0111], 0);
        assert_eq!(TOP_FIVE[0b1_1111_1111_1111], 0b1_1111_0000_0000);
        assert_eq!(TOP_FIVE[0b101], 0b101);
    }
}
