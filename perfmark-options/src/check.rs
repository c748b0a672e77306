//! From text (or a number literal) to a checked [`Value`]: the grammar
//! first, then the option's range from the table, and one error type that
//! says what was wrong and what is accepted.

use std::fmt;

use crate::grammar::{self, Refusal};
use crate::table::{Key, Kind, Range};
use crate::{Complexity, Measure};

/// A checked option value, in the unit and type of its
/// [`TestOptions`](crate::TestOptions) field.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    /// Nanoseconds (`budget`), a fraction (`regression`, `precision`) or a
    /// level (`confidence`).
    F64(f64),
    /// Whole nanoseconds (`max_time`, `warmup`) or a count (`allocs`).
    U64(u64),
    /// A growth class (`complexity`).
    Class(Complexity),
    /// The clock a test is timed with (`measure`).
    Measure(Measure),
}

/// A value refused for an option.
///
/// Its `Display` is the whole message, lowercase, naming the option, the
/// value as written, why it was refused when there is more to say than "not
/// of the form", and what the option accepts: `invalid budget `-5ns`: a
/// duration cannot be negative; expected a positive duration string such as
/// …`. The macro shows it at the value's span; the runtime puts the
/// variable's name in front. The reasons are private (jiff's error design):
/// ask with the `is_*` predicates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionError {
    key: Key,
    written: String,
    reason: Reason,
    accepts: &'static str,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reason {
    /// Not of the grammar's form (or not the kind of value the option takes).
    Syntax,
    /// Of the form, with a minus sign.
    Negative,
    /// Under the range (or at its excluded low bound).
    Below,
    /// Over the range (or at its excluded high bound), too large a number
    /// included.
    Above,
    /// A positive duration that is 0 in whole nanoseconds.
    RoundsToZero,
    /// A level outside its range, on either side.
    OutOfRange,
}

impl OptionError {
    /// The option the value was given for.
    pub fn key(&self) -> Key {
        self.key
    }

    /// Whether the value was not of the form the option takes (as opposed to
    /// of the form but out of range).
    pub fn is_syntax(&self) -> bool {
        self.reason == Reason::Syntax
    }

    /// Whether the value was of the form but outside the option's range.
    pub fn is_out_of_range(&self) -> bool {
        matches!(
            self.reason,
            Reason::Negative
                | Reason::Below
                | Reason::Above
                | Reason::RoundsToZero
                | Reason::OutOfRange
        )
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (name, written, accepts) = (self.key.name(), &self.written, self.accepts);
        let range = match &self.key.spec().kind {
            Kind::Duration(range)
            | Kind::WholeDuration(range)
            | Kind::Percent(range)
            | Kind::Level(range)
            | Kind::Count(range)
            | Kind::ScaledCount(range)
            | Kind::Threads(range) => Some(range),
            _ => None,
        };
        let why = match self.reason {
            Reason::OutOfRange => {
                return write!(f, "{name} `{written}` is out of range: expected {accepts}");
            }
            Reason::Syntax => "",
            Reason::Negative => range.map_or("", |r| r.negative),
            Reason::Below => range.map_or("", |r| r.below),
            Reason::Above => range.map_or("", |r| r.above),
            Reason::RoundsToZero => "it rounds to 0 ns; give at least 1ns",
        };
        if why.is_empty() {
            write!(f, "invalid {name} `{written}`: expected {accepts}")
        } else {
            write!(f, "invalid {name} `{written}`: {why}; expected {accepts}")
        }
    }
}

impl std::error::Error for OptionError {}

impl Key {
    /// Parses and checks this option's value as written in the attribute's
    /// string literal (`budget = "50ns"` gives `"50ns"`), with the
    /// [grammar](crate::grammar) and the option's range.
    ///
    /// # Errors
    /// When the text is not of the option's form, lies outside its range,
    /// or the option does not take a string (`args`, `ignore`, `confidence`)
    /// or is not supported yet.
    pub fn parse(self, text: &str) -> Result<Value, OptionError> {
        check_text(self, text, self.accepts())
    }

    /// As [`Key::parse`], for a value given as text at run time (the
    /// option's environment variable): the same grammar and range, and the
    /// error says what the variable accepts.
    ///
    /// # Errors
    /// As [`Key::parse`]; a level (`confidence`) is taken as a
    /// [`grammar::number`].
    pub fn parse_env(self, text: &str) -> Result<Value, OptionError> {
        let accepts = self
            .spec()
            .env
            .as_ref()
            .map_or(self.accepts(), |e| e.accepts);
        check_text(self, text, accepts)
    }

    /// Checks this option's value written as an integer literal
    /// (`allocs = 0`, or one element of `threads = [1, 2]`); `written` is
    /// the literal's digits as written, with its minus sign if any (`"-1"`)
    /// and without a type suffix.
    ///
    /// # Errors
    /// When the value is negative or out of the option's range, or the
    /// option does not take a whole number.
    pub fn check_integer(self, written: &str) -> Result<Value, OptionError> {
        match &self.spec().kind {
            Kind::Count(_) | Kind::ScaledCount(_) | Kind::Threads(_) => {
                check_text(self, written, self.accepts())
            }
            _ => Err(self.error(written, Reason::Syntax, self.accepts())),
        }
    }

    /// Checks this option's value written as a number literal
    /// (`confidence = 0.95`); `written` is the literal as written, minus
    /// sign included, for the message.
    ///
    /// # Errors
    /// When the value is outside the option's range, or the option does not
    /// take a number.
    pub fn check_number(self, value: f64, written: &str) -> Result<Value, OptionError> {
        let error = |reason| self.error(written, reason, self.accepts());
        match &self.spec().kind {
            Kind::Level(range) if range.contains(value) => Ok(Value::F64(value)),
            Kind::Level(_) => Err(error(Reason::OutOfRange)),
            _ => Err(error(Reason::Syntax)),
        }
    }

    fn error(self, written: &str, reason: Reason, accepts: &'static str) -> OptionError {
        OptionError {
            key: self,
            written: written.to_owned(),
            reason,
            accepts,
        }
    }
}

/// Why the grammar's `refusal` refuses a value: a number too large to hold
/// is over any range.
fn refused(refusal: Refusal) -> Reason {
    match refusal {
        Refusal::Syntax => Reason::Syntax,
        Refusal::Negative => Reason::Negative,
        Refusal::TooLarge => Reason::Above,
    }
}

fn check_text(key: Key, text: &str, accepts: &'static str) -> Result<Value, OptionError> {
    let error = |reason| key.error(text, reason, accepts);
    let duration = |range: &Range| -> Result<f64, OptionError> {
        let ns = grammar::duration_ns(text).map_err(|r| error(refused(r)))?;
        in_range(range, ns).map_err(error)?;
        Ok(ns)
    };
    let count_in = |count: Result<u64, Refusal>, range: &Range| -> Result<Value, OptionError> {
        let count = count.map_err(|r| error(refused(r)))?;
        in_range(range, count as f64).map_err(error)?;
        Ok(Value::U64(count))
    };
    match &key.spec().kind {
        Kind::Duration(range) => Ok(Value::F64(duration(range)?)),
        Kind::WholeDuration(range) => {
            let ns = duration(range)?;
            // The range's high bound is u64::MAX as f64 (2^64), excluded,
            // and rounding keeps an f64 below 2^64 there: the cast is exact.
            let whole = ns.round();
            if whole == 0.0 && ns > 0.0 {
                return Err(error(Reason::RoundsToZero));
            }
            Ok(Value::U64(whole as u64))
        }
        Kind::Percent(range) => {
            let percent = grammar::percent(text).map_err(|r| error(refused(r)))?;
            let fraction = percent / 100.0;
            in_range(range, fraction).map_err(error)?;
            Ok(Value::F64(fraction))
        }
        Kind::Level(range) => {
            let level = grammar::number(text).map_err(|r| match r {
                Refusal::Syntax => error(Reason::Syntax),
                Refusal::Negative | Refusal::TooLarge => error(Reason::OutOfRange),
            })?;
            if !range.contains(level) {
                return Err(error(Reason::OutOfRange));
            }
            Ok(Value::F64(level))
        }
        // Every count a u64 holds is in range: the grammar refuses the rest
        // (a minus sign, too many digits), and the range words why.
        Kind::Count(_) => grammar::count(text)
            .map(Value::U64)
            .map_err(|r| error(refused(r))),
        Kind::ScaledCount(range) => count_in(grammar::scaled_count(text), range),
        Kind::Clock => Measure::from_name(text)
            .map(Value::Measure)
            .ok_or_else(|| error(Reason::Syntax)),
        Kind::Growth => grammar::complexity(text)
            .map(Value::Class)
            .map_err(|_| error(Reason::Syntax)),
        Kind::Threads(range) => count_in(grammar::count(text), range),
        Kind::List | Kind::Types | Kind::Consts | Kind::FlagOrText => Err(error(Reason::Syntax)),
    }
}

fn in_range(range: &Range, value: f64) -> Result<(), Reason> {
    if range.contains(value) {
        Ok(())
    } else if value <= range.low {
        Err(Reason::Below)
    } else {
        Err(Reason::Above)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message of `key.parse(text)`'s error; panics on success.
    fn refused(key: Key, text: &str) -> String {
        match key.parse(text) {
            Ok(value) => panic!("{key:?} {text:?} accepted as {value:?}"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn accepted_values_in_the_fields_unit() {
        assert_eq!(Key::Budget.parse("50ns"), Ok(Value::F64(50.0)));
        assert_eq!(Key::Budget.parse("1.5 us"), Ok(Value::F64(1500.0)));
        assert_eq!(Key::Budget.parse("0.5ns"), Ok(Value::F64(0.5)));
        assert_eq!(Key::MaxTime.parse("2s"), Ok(Value::U64(2_000_000_000)));
        assert_eq!(Key::MaxTime.parse("1.5 ms"), Ok(Value::U64(1_500_000)));
        assert_eq!(Key::MaxTime.parse("0.5ns"), Ok(Value::U64(1)));
        assert_eq!(Key::Warmup.parse("0s"), Ok(Value::U64(0)));
        assert_eq!(Key::Warmup.parse("300ms"), Ok(Value::U64(300_000_000)));
        assert_eq!(Key::Regression.parse("5%"), Ok(Value::F64(0.05)));
        assert_eq!(Key::Regression.parse("2.5 %"), Ok(Value::F64(0.025)));
        assert_eq!(Key::Regression.parse("0%"), Ok(Value::F64(0.0)));
        assert_eq!(Key::Regression.parse("99.5%"), Ok(Value::F64(99.5 / 100.0)));
        assert_eq!(Key::Precision.parse("1%"), Ok(Value::F64(0.01)));
        assert_eq!(Key::Precision.parse("0.5%"), Ok(Value::F64(0.005)));
        assert_eq!(Key::Confidence.parse_env("0.99"), Ok(Value::F64(0.99)));
        assert_eq!(
            Key::Confidence.check_number(0.95, "0.95"),
            Ok(Value::F64(0.95))
        );
        assert_eq!(
            Key::Complexity.parse("O(n log n)"),
            Ok(Value::Class(Complexity::LinLog))
        );
        assert_eq!(
            Key::Complexity.parse("n^2"),
            Ok(Value::Class(Complexity::Quadratic))
        );
    }

    #[test]
    fn a_refused_growth_class_says_which_are_accepted() {
        assert_eq!(
            refused(Key::Complexity, "n log(n)"),
            "invalid complexity `n log(n)`: expected a growth class string: \"1\", \"log n\", \
             \"n\", \"n log n\", \"n^2\" or \"n^3\", also written as \"O(n log n)\""
        );
        assert!(Key::Complexity
            .check_number(1.0, "1.0")
            .unwrap_err()
            .is_syntax());
    }

    #[test]
    fn every_refused_duration_with_its_message() {
        let positive = Key::Budget.accepts();
        for text in [
            "50 parsecs",
            "50",
            "",
            "1e3ns",
            " 50ns",
            "-5 parsecs",
            "5NS",
        ] {
            assert_eq!(
                refused(Key::Budget, text),
                format!("invalid budget `{text}`: expected {positive}")
            );
        }
        assert_eq!(
            refused(Key::Budget, "-5ns"),
            format!("invalid budget `-5ns`: a duration cannot be negative; expected {positive}")
        );
        assert_eq!(
            refused(Key::Budget, "0ns"),
            format!("invalid budget `0ns`: it must be greater than zero; expected {positive}")
        );
        assert_eq!(
            refused(Key::MaxTime, "0s"),
            format!("invalid max_time `0s`: it must be greater than zero; expected {positive}")
        );
        assert_eq!(
            refused(Key::MaxTime, "0.4ns"),
            format!(
                "invalid max_time `0.4ns`: it rounds to 0 ns; give at least 1ns; expected \
                 {positive}"
            )
        );
        assert_eq!(
            refused(Key::MaxTime, "20000000000s"),
            format!("invalid max_time `20000000000s`: that is too long; expected {positive}")
        );
        let huge = format!("{}s", "9".repeat(400));
        assert_eq!(
            refused(Key::Budget, &huge),
            format!("invalid budget `{huge}`: that is too long; expected {positive}")
        );
        let any = Key::Warmup.accepts();
        assert_eq!(
            refused(Key::Warmup, "-300ms"),
            format!("invalid warmup `-300ms`: a duration cannot be negative; expected {any}")
        );
        assert_eq!(
            refused(Key::Warmup, "0.2ns"),
            format!("invalid warmup `0.2ns`: it rounds to 0 ns; give at least 1ns; expected {any}")
        );
    }

    #[test]
    fn every_refused_percentage_with_its_message() {
        let accepts = Key::Regression.accepts();
        let twice = "a tolerance of 100% or more would pass a test that became twice as slow; ";
        let huge = format!("{}%", "9".repeat(400));
        for (text, why) in [
            ("150%", twice),
            ("100%", twice),
            (huge.as_str(), twice),
            ("-5%", "a tolerance cannot be negative; "),
            ("5", ""),
            ("0.05", ""),
            ("5 percent", ""),
            ("", ""),
        ] {
            assert_eq!(
                refused(Key::Regression, text),
                format!("invalid regression `{text}`: {why}expected {accepts}"),
            );
        }
        let accepts = Key::Precision.accepts();
        for (text, why) in [
            ("100%", "a precision of 100% or more says nothing; "),
            ("0%", "a precision of 0% can never be reached; "),
            ("-1%", "a precision cannot be negative; "),
            ("1", ""),
            ("1%%", ""),
        ] {
            assert_eq!(
                refused(Key::Precision, text),
                format!("invalid precision `{text}`: {why}expected {accepts}"),
            );
        }
    }

    #[test]
    fn every_refused_level_with_its_message() {
        let literal = Key::Confidence.accepts();
        for (value, written) in [
            (1.5, "1.5"),
            (0.3, "0.3"),
            (0.5, "0.5"),
            (1.0, "1.0"),
            (-0.9, "-0.9"),
        ] {
            let error = Key::Confidence.check_number(value, written).unwrap_err();
            assert!(error.is_out_of_range());
            assert_eq!(
                error.to_string(),
                format!("confidence `{written}` is out of range: expected {literal}")
            );
        }
        let text = "a number strictly between 0.5 and 1, such as 0.95 or 0.99";
        for written in ["1.5", "0.5", "-0.9", "1"] {
            let error = Key::Confidence.parse_env(written).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("confidence `{written}` is out of range: expected {text}")
            );
        }
        for written in ["high", "9.5e-1", ".95", ""] {
            let error = Key::Confidence.parse_env(written).unwrap_err();
            assert!(error.is_syntax(), "{written:?}");
            assert_eq!(
                error.to_string(),
                format!("invalid confidence `{written}`: expected {text}")
            );
        }
    }

    #[test]
    fn env_values_use_the_same_grammar_and_say_so_of_text() {
        assert_eq!(Key::MaxTime.parse_env("500ms"), Ok(Value::U64(500_000_000)));
        assert_eq!(Key::Precision.parse_env("2%"), Ok(Value::F64(0.02)));
        let error = Key::MaxTime.parse_env("2 parsecs").unwrap_err();
        assert_eq!(error.key(), Key::MaxTime);
        assert_eq!(
            error.to_string(),
            format!(
                "invalid max_time `2 parsecs`: expected {}",
                Key::MaxTime.accepts()
            )
        );
    }

    #[test]
    fn options_that_take_no_string() {
        let error = Key::Args.parse("10").unwrap_err();
        assert!(error.is_syntax());
        assert_eq!(
            error.to_string(),
            "invalid args `10`: expected a list of arguments such as `args = [10, 100, 1000]`"
        );
        assert!(Key::Budget
            .check_number(5.0, "5.0")
            .unwrap_err()
            .is_syntax());
    }

    #[test]
    fn thread_counts_are_whole_numbers_up_to_the_limit() {
        assert_eq!(Key::Threads.check_integer("0"), Ok(Value::U64(0)));
        assert_eq!(Key::Threads.check_integer("1024"), Ok(Value::U64(1024)));
        let accepts = Key::Threads.accepts();
        assert_eq!(
            Key::Threads.check_integer("-2").unwrap_err().to_string(),
            format!("invalid threads `-2`: a thread count cannot be negative; expected {accepts}")
        );
        let above = Key::Threads.check_integer("1025").unwrap_err();
        assert!(above.is_out_of_range());
        assert_eq!(
            above.to_string(),
            format!(
                "invalid threads `1025`: perfmark runs at most 1024 threads at once; expected \
                 {accepts}"
            )
        );
        assert!(Key::Threads
            .check_integer("99999999999999999999")
            .unwrap_err()
            .is_out_of_range());
        assert!(Key::Threads.parse("2").is_ok(), "the text of a count");
        assert!(Key::Types.parse("u32").unwrap_err().is_syntax());
        assert!(Key::Consts.check_integer("16").unwrap_err().is_syntax());
    }

    #[test]
    fn allocation_counts_are_whole_numbers() {
        assert_eq!(Key::Allocs.check_integer("0"), Ok(Value::U64(0)));
        assert_eq!(Key::Allocs.check_integer("12"), Ok(Value::U64(12)));
        assert_eq!(
            Key::Allocs.check_integer("18446744073709551615"),
            Ok(Value::U64(u64::MAX))
        );
        let accepts = Key::Allocs.accepts();
        assert_eq!(
            Key::Allocs.check_integer("-1").unwrap_err().to_string(),
            format!(
                "invalid allocs `-1`: an allocation count cannot be negative; expected {accepts}"
            )
        );
        assert_eq!(
            Key::Allocs
                .check_integer("99999999999999999999")
                .unwrap_err()
                .to_string(),
            format!(
                "invalid allocs `99999999999999999999`: that is more allocations than a u64 \
                 counts; expected {accepts}"
            )
        );
        let error = Key::Allocs.parse("0.5").unwrap_err();
        assert!(error.is_syntax());
        assert_eq!(
            error.to_string(),
            format!("invalid allocs `0.5`: expected {accepts}")
        );
        assert!(Key::Budget.check_integer("5").unwrap_err().is_syntax());
    }

    #[test]
    fn clocks_by_name() {
        assert_eq!(
            Key::Measure.parse("wall"),
            Ok(Value::Measure(Measure::Wall))
        );
        assert_eq!(Key::Measure.parse("cpu"), Ok(Value::Measure(Measure::Cpu)));
        for text in ["CPU", "gpu", "", " cpu", "thread"] {
            let error = Key::Measure.parse(text).unwrap_err();
            assert!(error.is_syntax(), "{text:?}");
            assert_eq!(
                error.to_string(),
                format!(
                    "invalid measure `{text}`: expected \"wall\" (wall-clock time, the \
                     default) or \"cpu\" (the measuring thread's CPU time)"
                )
            );
        }
    }

    #[test]
    fn instructions_take_a_literal_or_a_scaled_string() {
        assert_eq!(
            Key::Instructions.check_integer("2000"),
            Ok(Value::U64(2000))
        );
        assert_eq!(Key::Instructions.parse("2000"), Ok(Value::U64(2000)));
        assert_eq!(Key::Instructions.parse("2k"), Ok(Value::U64(2000)));
        assert_eq!(Key::Instructions.parse("1.5M"), Ok(Value::U64(1_500_000)));
        assert_eq!(
            Key::Instructions.parse("0.25G"),
            Ok(Value::U64(250_000_000))
        );
        assert_eq!(Key::Instructions.parse("1.5k"), Ok(Value::U64(1500)));
        let accepts = Key::Instructions.accepts();
        for text in [
            "1.2345k", "2 k", "2K", "2e3", "", "k", "1.k", ".5k", "2kk", "+2",
        ] {
            assert_eq!(
                refused(Key::Instructions, text),
                format!("invalid instructions `{text}`: expected {accepts}"),
                "{text}"
            );
        }
        assert_eq!(
            refused(Key::Instructions, "-2k"),
            format!("invalid instructions `-2k`: an instruction count cannot be negative; expected {accepts}")
        );
        assert_eq!(
            Key::Instructions
                .check_integer("0")
                .unwrap_err()
                .to_string(),
            format!(
                "invalid instructions `0`: a limit of 0 instructions fails every test; give at \
                 least 1; expected {accepts}"
            )
        );
        assert_eq!(
            refused(Key::Instructions, "18446744073709552G"),
            format!(
                "invalid instructions `18446744073709552G`: that is more instructions than a u64 \
                 counts; expected {accepts}"
            )
        );
    }
}
