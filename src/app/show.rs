//! `show`: a few records drawn for a person.

use super::*;

pub(super) fn run_show(args: &cli::ShowArgs) -> Result<ExitCode, AppError> {
    let bytes = read_input(&args.input, false)?;
    let layout = input::detect_layout_as(bytes.bytes(), &layout_choice(&args.layout))?;
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let text = crate::show::show(
        bytes.bytes(),
        &layout,
        &args.lines,
        crate::show::Style {
            color,
            titles: !args.quiet,
        },
    )
    .map_err(|source| AppError::Show {
        path: args.input.clone(),
        source,
    })?;
    let mut out = Output::open(None)?;
    out.write_all(text.as_bytes())?;
    out.finish()?;
    Ok(ExitCode::SUCCESS)
}
