//! `rules`: the options of a variant, and the named rule sets.

use super::CliError;
use super::common::{VariantArg, emit};
use clap::Args;
use millbase::Variant;
use serde_json::{Map, Value, json};

/// Arguments of `millbase rules`.
#[derive(Debug, Args)]
pub struct RulesArgs {
    #[command(flatten)]
    variant: VariantArg,
    /// List the named rule sets, each with the options it changes from the standard game.
    #[arg(long)]
    list: bool,
    /// Print JSON: {"variant", "name", "fingerprint", "rules": {key: value, ...}, "tables"}
    /// (with --list: an array of {"name", "variant", "changes": {key: value, ...}, "tables"}).
    #[arg(long)]
    json: bool,
}

/// `millbase rules`.
pub fn run_rules(args: &RulesArgs) -> Result<(), CliError> {
    let v = args.variant.get()?;
    if args.list {
        return emit(&list(args.json));
    }
    if args.json {
        let rules: Map<String, Value> = v
            .rules()
            .into_iter()
            .map(|(k, value)| (k.to_string(), Value::String(value)))
            .collect();
        let doc = json!({
            "variant": v.label(),
            "name": v.name,
            "fingerprint": format!("{:016x}", v.fingerprint()),
            "rules": rules,
            "tables": tables_json(&v, false),
            "placing_tables": tables_json(&v, true),
        });
        return emit(&format!("{doc}\n"));
    }
    let mut text = format!("variant {}\n", v.label());
    for (key, value) in v.rules() {
        text.push_str(&format!("{key} {value}\n"));
    }
    text.push_str(&format!("fingerprint {:016x}\n", v.fingerprint()));
    text.push_str(&format!("tables {}\n", tables_text(&v)));
    emit(&text)
}

/// "supported", or the options tables do not follow yet; `placing`: the same for the
/// tables of the placing phase.
fn tables_json(v: &Variant, placing: bool) -> Value {
    let mut unsupported = v.unsupported_by_tables();
    if placing {
        unsupported.extend(v.unsupported_in_placing());
    }
    if unsupported.is_empty() {
        Value::String("supported".into())
    } else {
        json!(unsupported)
    }
}

/// "supported", "moving phase only" and the options the placing phase's tables do not follow
/// yet, or "not yet" and the options no table follows yet.
fn tables_text(v: &Variant) -> String {
    let unsupported = v.unsupported_by_tables();
    let placing = v.unsupported_in_placing();
    if !unsupported.is_empty() {
        format!("not yet ({})", unsupported.join(", "))
    } else if !placing.is_empty() {
        format!(
            "moving phase only (the placing phase not yet: {})",
            placing.join(", ")
        )
    } else {
        "supported".into()
    }
}

/// The options of `v` that differ from the standard game's (the N-move rules of play
/// included).
fn changes(v: &Variant) -> Vec<(&'static str, String)> {
    let std = Variant::standard();
    v.rules()
        .into_iter()
        .filter(|(k, value)| std.rule(k).as_deref() != Some(value.as_str()))
        .collect()
}

/// Every named rule set with the options it changes: one line each, or a JSON array.
fn list(json: bool) -> String {
    let sets: Vec<(&str, Variant)> = Variant::names()
        .into_iter()
        .filter_map(|n| Variant::by_name(n).map(|v| (n, v)))
        .collect();
    if json {
        let items: Vec<Value> = sets
            .iter()
            .map(|(n, v)| {
                let changes: Map<String, Value> = changes(v)
                    .into_iter()
                    .map(|(k, value)| (k.to_string(), Value::String(value)))
                    .collect();
                json!({
                    "name": n,
                    "variant": v.label(),
                    "changes": changes,
                    "tables": tables_json(v, false),
                    "placing_tables": tables_json(v, true),
                })
            })
            .collect();
        return format!("{}\n", Value::Array(items));
    }
    let width = sets.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    let mut text = String::new();
    for (n, v) in &sets {
        let changed: Vec<String> = changes(v)
            .into_iter()
            .map(|(k, value)| format!("{k}={value}"))
            .collect();
        let changed = if changed.is_empty() {
            "the standard game".to_string()
        } else {
            changed.join(" ")
        };
        let same = if *n != v.name {
            format!(" (= {})", v.name)
        } else {
            String::new()
        };
        text.push_str(&format!("{n:<width$}  {changed}{same}\n"));
    }
    text
}
