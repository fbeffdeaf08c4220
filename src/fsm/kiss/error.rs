//! The reader's errors: [`KissError`] names the file, line and column;
//! [`KissErrorKind`] says what is wrong.

/// Why a KISS2 file is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KissErrorKind {
    /// No `.i` before the first row (or at all).
    #[error("missing `.i` (the number of input bits) before the rows")]
    MissingInputs,
    /// No `.o` before the first row (or at all).
    #[error("missing `.o` (the number of output bits) before the rows")]
    MissingOutputs,
    /// A header given twice.
    #[error("`{directive}` given twice (first on line {first})")]
    DuplicateHeader {
        /// The directive.
        directive: String,
        /// The line of its first appearance.
        first: usize,
    },
    /// A header after the first row.
    #[error("`{0}` after the first row: headers come first")]
    HeaderAfterRows(String),
    /// A directive this reader does not know.
    #[error("unknown directive `{0}`")]
    UnknownDirective(String),
    /// A header without its argument.
    #[error("`{0}` needs an argument")]
    MissingArgument(String),
    /// A header with more arguments than it takes.
    #[error("`{directive}` takes one argument, not also `{extra}`")]
    ExtraArgument {
        /// The directive.
        directive: String,
        /// The first extra word.
        extra: String,
    },
    /// A count that is not a non-negative integer.
    #[error("`{directive}` needs a non-negative integer, not `{text}`")]
    BadNumber {
        /// The directive.
        directive: String,
        /// What was written.
        text: String,
    },
    /// `.i` above [`super::MAX_INPUTS`].
    #[error("{got} input bits: at most {limit} are supported (2^i symbols per state)")]
    TooManyInputs {
        /// `.i`.
        got: u64,
        /// The limit.
        limit: u32,
    },
    /// `.o` above [`super::MAX_OUTPUTS`].
    #[error("{got} output bits: at most {limit} are supported")]
    TooManyOutputs {
        /// `.o`.
        got: u64,
        /// The limit.
        limit: u32,
    },
    /// More distinct states than [`super::MAX_STATES`].
    #[error("more than {0} states")]
    TooManyStates(usize),
    /// `.ilb` or `.ob` naming a different number of signals.
    #[error("`{directive}` names {got} signals, but there are {want}")]
    LabelCount {
        /// The directive.
        directive: String,
        /// Names given.
        got: usize,
        /// Bits declared.
        want: u32,
    },
    /// A row with too few or too many fields.
    #[error("a row needs {want} fields ({layout}), found {got}")]
    FieldCount {
        /// Fields expected.
        want: usize,
        /// Fields found.
        got: usize,
        /// What they are.
        layout: &'static str,
    },
    /// An input cube of the wrong width.
    #[error("input cube `{cube}` has {got} columns, `.i` is {want}")]
    InputWidth {
        /// The cube.
        cube: String,
        /// Its width.
        got: usize,
        /// `.i`.
        want: u32,
    },
    /// An output field of the wrong width.
    #[error("output field `{field}` has {got} columns, `.o` is {want}")]
    OutputWidth {
        /// The field.
        field: String,
        /// Its width.
        got: usize,
        /// `.o`.
        want: u32,
    },
    /// A character other than `0`, `1`, `-` in an input cube.
    #[error("`{0}` in an input cube: only 0, 1 and - are allowed")]
    BadInputChar(char),
    /// A character other than `0`, `1`, `-` in an output field.
    #[error("`{0}` in an output field: only 0, 1 and - are allowed")]
    BadOutputChar(char),
    /// A state name with characters a name may not have.
    #[error(
        "`{0}` is not a state name (letters, digits and _ - . [ ] $ : / @, not starting with `.`)"
    )]
    BadStateName(String),
    /// `*` as the next state.
    #[error("`*` as next state: only the present state may be `*` (any state)")]
    StarNextState,
    /// A file with no rows.
    #[error("no rows: the machine has no transitions")]
    NoRows,
    /// Text after `.e`.
    #[error("text after `.e`: `{0}`")]
    TextAfterEnd(String),
    /// `.s` disagreeing with the states the rows name.
    #[error("`.s {declared}` but the rows name {found} states")]
    StateCount {
        /// `.s`.
        declared: u64,
        /// Distinct states in the rows.
        found: usize,
    },
    /// `.p` disagreeing with the rows.
    #[error("`.p {declared}` but there are {found} rows")]
    TermCount {
        /// `.p`.
        declared: u64,
        /// Rows found.
        found: usize,
    },
    /// `.r` naming a state no row names.
    #[error("reset state `{0}` appears in no row")]
    UnknownResetState(String),
    /// Two rows covering the same state and input, going to the same next
    /// state, one giving an output 0 and the other 1.
    #[error("contradicts line {other}: same state `{state}`, input {input}, next state `{next}`, but output {output} is 0 in one and 1 in the other")]
    Contradiction {
        /// The earlier row's line.
        other: usize,
        /// The state.
        state: String,
        /// The input minterm, as bits.
        input: String,
        /// The next state.
        next: String,
        /// The output column (from 0, left).
        output: u32,
    },
    /// A machine whose symbol table (`s · 2^i` cells, or the rows'
    /// expansion) is over the limit.
    #[error("{what}: over the limit of {limit} (the symbol table expands every state and input)")]
    TooLarge {
        /// What is counted.
        what: String,
        /// The limit.
        limit: u64,
    },
}

/// A KISS2 file refused: where, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}:{column}: {kind}")]
pub struct KissError {
    /// The file name as the reader was given it.
    pub file: String,
    /// 1-based; 0 for the file as a whole.
    pub line: usize,
    /// 1-based; 0 when the whole line (or file) is meant.
    pub column: usize,
    /// What is wrong (boxed: the error stays small on the happy path).
    pub kind: Box<KissErrorKind>,
}

impl From<KissError> for crate::error::Error {
    fn from(e: KissError) -> crate::error::Error {
        crate::error::Error::Parse(crate::error::ParseError {
            file: e.file,
            line: e.line,
            column: e.column,
            form: Some("KISS2"),
            message: e.kind.to_string(),
        })
    }
}
