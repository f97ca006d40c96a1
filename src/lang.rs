//! The languages the bot speaks: a leaf module, so that the use cases
//! (`app/`) can name a reply's language without depending on the sentences
//! (`i18n/`), which depend on the use cases' messages.

/// A language the bot speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English (the default).
    #[default]
    En,
    /// German.
    De,
}

impl Lang {
    /// Every language.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::De];

    /// The language for a Discord locale string: `de` (any region) is German,
    /// everything else English.
    #[must_use]
    pub fn from_locale(locale: &str) -> Lang {
        let primary = locale.split(['-', '_']).next().unwrap_or("");
        if primary.eq_ignore_ascii_case("de") {
            Lang::De
        } else {
            Lang::En
        }
    }
}
