//! One module per synopsis kind. Each returns `None` when the output is not of its kind
//! (so detection goes on to the next kind).
