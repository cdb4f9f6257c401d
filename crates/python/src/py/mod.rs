//! The PyO3 binding.
