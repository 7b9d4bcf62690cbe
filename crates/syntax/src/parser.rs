//! The pest parser generated from `grammar/game.pest`.

#[derive(pest_derive::Parser)]
#[grammar = "../../grammar/game.pest"]
pub struct GameParser;
