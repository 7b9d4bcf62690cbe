#[path = "stoneball/oracle.rs"]
mod oracle;
