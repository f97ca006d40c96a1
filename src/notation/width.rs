//! Character tables: full-width digits, kanji numerals, piece names.

use crate::shogi::PieceKind;

/// Full-width digits ０..９ (index = value).
pub(crate) const FULL_DIGITS: [char; 10] =
    ['０', '１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// Kanji numerals 一..九 (index = value − 1).
pub(crate) const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Maps one input character to its plain form: full-width ASCII to ASCII,
/// kanji numerals to digits, ASCII letters to lowercase. Spaces and side marks
/// become `None` (they are dropped); every other character stays as it is.
pub(crate) fn normalize_char(c: char) -> Option<char> {
    let c = match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ if KANJI_DIGITS.contains(&c) => {
            let i = KANJI_DIGITS.iter().position(|&k| k == c).unwrap_or(0);
            char::from(b'1' + i as u8)
        }
        '−' | '‐' | '–' | '—' | 'ー' => '-',
        '×' => 'x',
        _ => c,
    };
    if c.is_whitespace() || matches!(c, '▲' | '△' | '☗' | '☖' | '▼' | '▽' | '・') {
        return None;
    }
    Some(c.to_ascii_lowercase())
}

/// The one-character kanji of a piece kind as KIF writes it (成香 etc. are two).
#[must_use]
pub(crate) fn kanji_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "歩",
        PieceKind::Lance => "香",
        PieceKind::Knight => "桂",
        PieceKind::Silver => "銀",
        PieceKind::Gold => "金",
        PieceKind::Bishop => "角",
        PieceKind::Rook => "飛",
        PieceKind::King => "玉",
        PieceKind::ProPawn => "と",
        PieceKind::ProLance => "成香",
        PieceKind::ProKnight => "成桂",
        PieceKind::ProSilver => "成銀",
        PieceKind::Horse => "馬",
        PieceKind::Dragon => "龍",
    }
}

/// The kind for a single piece kanji (one-character names, including the
/// one-character forms 杏 圭 全 of promoted lance, knight, silver and 竜 for 龍).
pub(crate) fn kind_from_kanji(c: char) -> Option<PieceKind> {
    Some(match c {
        '歩' => PieceKind::Pawn,
        '香' => PieceKind::Lance,
        '桂' => PieceKind::Knight,
        '銀' => PieceKind::Silver,
        '金' => PieceKind::Gold,
        '角' => PieceKind::Bishop,
        '飛' => PieceKind::Rook,
        '玉' | '王' => PieceKind::King,
        'と' => PieceKind::ProPawn,
        '杏' => PieceKind::ProLance,
        '圭' => PieceKind::ProKnight,
        '全' => PieceKind::ProSilver,
        '馬' => PieceKind::Horse,
        '龍' | '竜' => PieceKind::Dragon,
        _ => return None,
    })
}

/// The CSA two-letter code of a kind.
#[must_use]
pub(crate) fn csa_code(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "FU",
        PieceKind::Lance => "KY",
        PieceKind::Knight => "KE",
        PieceKind::Silver => "GI",
        PieceKind::Gold => "KI",
        PieceKind::Bishop => "KA",
        PieceKind::Rook => "HI",
        PieceKind::King => "OU",
        PieceKind::ProPawn => "TO",
        PieceKind::ProLance => "NY",
        PieceKind::ProKnight => "NK",
        PieceKind::ProSilver => "NG",
        PieceKind::Horse => "UM",
        PieceKind::Dragon => "RY",
    }
}

/// The kind of a CSA code (either case).
pub(crate) fn kind_from_csa(code: &str) -> Option<PieceKind> {
    PieceKind::ALL
        .into_iter()
        .find(|&k| csa_code(k).eq_ignore_ascii_case(code))
}

/// A count as kanji (1..=18) for hands in KIF: 二 … 十八; 1 is empty.
pub(crate) fn kanji_count(n: u8) -> String {
    match n {
        0 | 1 => String::new(),
        2..=9 => KANJI_DIGITS[usize::from(n - 1)].to_string(),
        10 => "十".to_string(),
        _ => format!("十{}", KANJI_DIGITS[usize::from(n.min(19) - 11)]),
    }
}

/// Reads a kanji count (一..十八); empty text is 1.
pub(crate) fn parse_kanji_count(s: &str) -> Option<u8> {
    let digit = |c: char| {
        KANJI_DIGITS
            .iter()
            .position(|&k| k == c)
            .map(|i| i as u8 + 1)
    };
    let cs: Vec<char> = s.chars().collect();
    match cs.as_slice() {
        [] => Some(1),
        ['十'] => Some(10),
        ['十', d] => digit(*d).map(|d| 10 + d),
        [d] => digit(*d),
        _ => s.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_and_numerals() {
        let n: String = "▲７六　歩Ｐ-７ｆ"
            .chars()
            .filter_map(normalize_char)
            .collect();
        assert_eq!(n, "76歩p-7f");
        for k in PieceKind::ALL {
            assert_eq!(kind_from_csa(csa_code(k)), Some(k));
        }
        for n in 1..=18 {
            assert_eq!(parse_kanji_count(&kanji_count(n)), Some(n));
        }
    }
}
