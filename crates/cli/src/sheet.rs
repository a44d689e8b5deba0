//! `torite sheet`: printable sheets of a ruleset (a one-page rules summary, score cards to cut
//! out, a blank score sheet, the forms of a game side by side) as HTML or PDF; the sheets
//! themselves are made by torite-sheets.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use torite_core::Ruleset;
use torite_i18n::Lang;
use torite_sheets::{Format, Kind, Sheet};

use crate::Failure;

/// What to print.
#[derive(Debug)]
pub struct Args {
    /// The rules, or a game kept with `torite score`.
    pub source: Source,
    /// The language of the sheet.
    pub lang: Lang,
    /// Which sheet; by default the rules summary, or for a kept game its score sheet.
    pub kind: Option<Kind>,
    /// HTML or PDF; by default from the output file's extension, else HTML.
    pub format: Option<Format>,
    /// The file to write; standard output when `None` or `-`.
    pub output: Option<PathBuf>,
}

/// What a sheet is made of.
#[derive(Debug)]
pub enum Source {
    /// A ruleset: a preset, house rules, or a family's first preset for a compare sheet.
    Rules(Ruleset),
    /// A game kept with `torite score`: its score sheet is the blank one with the game so far
    /// written in.
    Kept(crate::score::Sheet),
}

/// What a sheet is made of: a preset id or a house-rule file, a `torite score` save, or, for
/// a compare sheet, a game's family (`mini-misere`: the first of its presets, set beside the
/// others).
pub fn load(arg: &str, kind: Option<Kind>) -> Result<Source, Failure> {
    let path = std::path::Path::new(arg);
    if kind == Some(Kind::Compare)
        && !path.exists()
        && let Some(preset) = torite_sheets::family_preset(arg)
    {
        return Ok(Source::Rules(preset.ruleset()));
    }
    if path.is_file() && crate::score::Sheet::is_save(path) {
        return crate::score::Sheet::load(path).map(Source::Kept);
    }
    crate::input::load_rules(arg).map(Source::Rules)
}

/// The format asked for, or the one the output file's extension names, or HTML.
fn format(args: &Args) -> Format {
    args.format
        .or_else(|| args.output.as_deref().and_then(Format::from_path))
        .unwrap_or(Format::Html)
}

/// Makes the sheet and writes it; returns what to print on standard output.
pub fn run(args: Args) -> Result<String, Failure> {
    let format = format(&args);
    let sheet = match (&args.source, args.kind) {
        (Source::Kept(kept), None | Some(Kind::Scorepad)) => kept.printed(args.lang)?,
        (Source::Kept(kept), Some(kind)) => Sheet::new(&kept.rules(), kind, args.lang),
        (Source::Rules(rules), kind) => Sheet::new(rules, kind.unwrap_or(Kind::Rules), args.lang),
    };
    let bytes = sheet.render(format).map_err(Failure::input)?;
    match &args.output {
        Some(path) if path.as_os_str() != "-" => {
            crate::save::save(path, &bytes)?;
            Ok(format!("{}: {} bytes\n", path.display(), bytes.len()))
        }
        _ => {
            let mut stdout = std::io::stdout().lock();
            if format == Format::Pdf && stdout.is_terminal() {
                return Err(Failure::input(
                    "a PDF is binary: write it to a file with -o FILE.pdf, or redirect standard output",
                ));
            }
            stdout
                .write_all(&bytes)
                .and_then(|()| stdout.flush())
                .map_err(|e| Failure::input(format!("cannot write the sheet: {e}")))?;
            Ok(String::new())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use torite_core::Preset;

    fn args(output: Option<PathBuf>, format: Option<Format>) -> Args {
        Args {
            source: Source::Rules(Preset::Mura4.ruleset()),
            lang: Lang::Ja,
            kind: Some(Kind::Scores),
            format,
            output,
        }
    }

    #[test]
    fn the_format_follows_the_option_then_the_extension() {
        assert_eq!(format(&args(None, None)), Format::Html);
        assert_eq!(format(&args(Some("cards.PDF".into()), None)), Format::Pdf);
        assert_eq!(
            format(&args(Some("cards.pdf".into()), Some(Format::Html))),
            Format::Html
        );
    }

    #[test]
    fn writes_a_pdf_file() {
        let path = std::env::temp_dir().join(format!("torite-sheet-{}.pdf", std::process::id()));
        let said = run(args(Some(path.clone()), None)).unwrap();
        let pdf = std::fs::read(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(pdf.starts_with(b"%PDF"));
        assert!(said.contains(&format!("{} bytes", pdf.len())), "{said}");
    }
}
