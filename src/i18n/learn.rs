//! The words of `/learn`: each lesson's title, task and the hint after a
//! wrong (but legal) try, in English and German.

use super::Lang;
use crate::app::Lesson;

/// (title, task, hint) of a lesson.
#[must_use]
pub fn lesson_text(lesson: Lesson, lang: Lang) -> (&'static str, &'static str, &'static str) {
    match (lesson, lang) {
        (Lesson::Pawn, Lang::En) => (
            "The pawn",
            "The pawn (歩) moves one square straight forward and captures the same way. Capture the gold in front of your pawn.",
            "A pawn only goes one square forward.",
        ),
        (Lesson::Pawn, Lang::De) => (
            "Der Bauer",
            "Der Bauer (歩) zieht ein Feld geradeaus nach vorn und schlägt genauso. Schlage den Goldgeneral vor deinem Bauern.",
            "Ein Bauer geht nur ein Feld nach vorn.",
        ),
        (Lesson::Lance, Lang::En) => (
            "The lance",
            "The lance (香) moves any number of squares straight forward, never sideways or back. Capture the silver far up the file.",
            "Go all the way up the file to the silver.",
        ),
        (Lesson::Lance, Lang::De) => (
            "Die Lanze",
            "Die Lanze (香) zieht beliebig weit geradeaus nach vorn, nie seitwärts oder zurück. Schlage den Silbergeneral weit oben auf der Linie.",
            "Zieh die ganze Linie hinauf bis zum Silbergeneral.",
        ),
        (Lesson::Knight, Lang::En) => (
            "The knight",
            "The knight (桂) jumps two squares forward and one to the side — only forward, over any piece. Capture the rook.",
            "The rook stands where the knight's jump lands.",
        ),
        (Lesson::Knight, Lang::De) => (
            "Der Springer",
            "Der Springer (桂) springt zwei Felder nach vorn und eines zur Seite — nur nach vorn, über jede Figur hinweg. Schlage den Turm.",
            "Der Turm steht dort, wo der Sprung des Springers landet.",
        ),
        (Lesson::Silver, Lang::En) => (
            "The silver general",
            "The silver (銀) moves one square forward or diagonally in any direction, but not sideways or straight back. Capture the pawn diagonally behind it.",
            "Step diagonally backwards onto the pawn.",
        ),
        (Lesson::Silver, Lang::De) => (
            "Der Silbergeneral",
            "Der Silbergeneral (銀) zieht ein Feld nach vorn oder schräg in jede Richtung, aber nicht seitwärts oder gerade zurück. Schlage den Bauern schräg hinter ihm.",
            "Zieh schräg nach hinten auf den Bauern.",
        ),
        (Lesson::Gold, Lang::En) => (
            "The gold general",
            "The gold (金) moves one square in any direction except diagonally backwards. Capture the bishop beside it.",
            "The bishop stands right next to your gold.",
        ),
        (Lesson::Gold, Lang::De) => (
            "Der Goldgeneral",
            "Der Goldgeneral (金) zieht ein Feld in jede Richtung außer schräg nach hinten. Schlage den Läufer neben ihm.",
            "Der Läufer steht direkt neben deinem Goldgeneral.",
        ),
        (Lesson::Bishop, Lang::En) => (
            "The bishop",
            "The bishop (角) moves any number of squares diagonally. Capture the rook at the far end of the diagonal.",
            "Follow the long diagonal to the rook.",
        ),
        (Lesson::Bishop, Lang::De) => (
            "Der Läufer",
            "Der Läufer (角) zieht beliebig weit schräg. Schlage den Turm am Ende der Diagonale.",
            "Folge der langen Diagonale bis zum Turm.",
        ),
        (Lesson::Rook, Lang::En) => (
            "The rook",
            "The rook (飛) moves any number of squares straight: forward, back or sideways. Capture the gold up the file.",
            "Go straight up the file to the gold.",
        ),
        (Lesson::Rook, Lang::De) => (
            "Der Turm",
            "Der Turm (飛) zieht beliebig weit gerade: vor, zurück oder seitwärts. Schlage den Goldgeneral oben auf der Linie.",
            "Zieh die Linie gerade hinauf bis zum Goldgeneral.",
        ),
        (Lesson::King, Lang::En) => (
            "The king",
            "The king (玉) moves one square in any direction. Your king is in check from a gold that nobody protects: capture it.",
            "Don't run away — the gold is unprotected.",
        ),
        (Lesson::King, Lang::De) => (
            "Der König",
            "Der König (玉) zieht ein Feld in jede Richtung. Dein König steht im Schach durch einen ungedeckten Goldgeneral: schlage ihn.",
            "Lauf nicht weg — der Goldgeneral ist ungedeckt.",
        ),
        (Lesson::Promotion, Lang::En) => (
            "Promotion",
            "A piece that moves into, within or out of the last three ranks may promote: a pawn becomes a tokin (と) that moves like a gold. Move your pawn forward and promote (add + to the move, or pick the promoting move from the list).",
            "Move forward and choose the promotion (+).",
        ),
        (Lesson::Promotion, Lang::De) => (
            "Beförderung",
            "Eine Figur, die in, innerhalb oder aus den letzten drei Reihen zieht, darf befördert werden: ein Bauer wird zur Tokin (と), die wie ein Goldgeneral zieht. Zieh deinen Bauern vor und befördere ihn (+ an den Zug hängen oder den befördernden Zug aus der Liste wählen).",
            "Zieh vor und wähle die Beförderung (+).",
        ),
        (Lesson::Drop, Lang::En) => (
            "Capture and drop",
            "Captured pieces join your hand. Instead of moving, you may drop a piece from your hand on any empty square. Drop your silver so that it attacks the gold.",
            "A silver attacks the squares in front of it and diagonally behind it: drop it next to the gold.",
        ),
        (Lesson::Drop, Lang::De) => (
            "Schlagen und Einsetzen",
            "Geschlagene Figuren kommen in deine Hand. Statt zu ziehen darfst du eine Figur aus der Hand auf ein leeres Feld einsetzen. Setze deinen Silbergeneral so ein, dass er den Goldgeneral angreift.",
            "Ein Silbergeneral greift die Felder vor sich und schräg hinter sich an: setze ihn neben den Goldgeneral.",
        ),
        (Lesson::Nifu, Lang::En) => (
            "Forbidden drop 1: two pawns",
            "You may not have two unpromoted pawns in one file (nifu). Drop your pawn so that it attacks one of the golds.",
            "Only one of the golds stands in a file without your pawn.",
        ),
        (Lesson::Nifu, Lang::De) => (
            "Verbotenes Einsetzen 1: zwei Bauern",
            "Zwei unbeförderte eigene Bauern in einer Linie sind verboten (Nifu). Setze deinen Bauern so ein, dass er einen der Goldgeneräle angreift.",
            "Nur einer der Goldgeneräle steht in einer Linie ohne deinen Bauern.",
        ),
        (Lesson::DeadDrop, Lang::En) => (
            "Forbidden drop 2: a piece that could never move",
            "A piece may not be dropped where it could never move again: a pawn or lance on the last rank, a knight on the last two. Drop your knight so that it attacks the rook.",
            "A knight attacks two squares forward and one to the side: drop it two ranks below the rook.",
        ),
        (Lesson::DeadDrop, Lang::De) => (
            "Verbotenes Einsetzen 2: eine Figur, die nie mehr ziehen könnte",
            "Eine Figur darf nicht dort eingesetzt werden, wo sie nie mehr ziehen könnte: Bauer oder Lanze auf der letzten Reihe, Springer auf den letzten beiden. Setze deinen Springer so ein, dass er den Turm angreift.",
            "Ein Springer greift zwei Felder vor und eines daneben an: setze ihn zwei Reihen unter den Turm.",
        ),
        (Lesson::PawnDropMate, Lang::En) => (
            "Forbidden drop 3: mate by a pawn drop",
            "Giving mate by dropping a pawn is forbidden (uchifuzume); a pawn that moves may mate. Mate the king another way.",
            "That is no mate yet. Use the gold from your hand.",
        ),
        (Lesson::PawnDropMate, Lang::De) => (
            "Verbotenes Einsetzen 3: Matt durch einen eingesetzten Bauern",
            "Matt durch einen eingesetzten Bauern ist verboten (Uchifuzume); ein ziehender Bauer darf mattsetzen. Setze den König anders matt.",
            "Das ist noch kein Matt. Nimm den Goldgeneral aus deiner Hand.",
        ),
        (Lesson::FirstMate, Lang::En) => (
            "A first mate",
            "Checkmate: the king is attacked and has no way out. Mate the king in one move.",
            "That is no mate. A gold dropped right in front of the king, protected by your pawn, is.",
        ),
        (Lesson::FirstMate, Lang::De) => (
            "Ein erstes Matt",
            "Matt: der König ist angegriffen und kann nicht entkommen. Setze den König mit einem Zug matt.",
            "Das ist kein Matt. Ein Goldgeneral direkt vor dem König, gedeckt von deinem Bauern, wäre es.",
        ),
        (Lesson::MiniGame, Lang::En) => (
            "A whole game",
            "Now play a whole game of minishogi (5×5) against komadai (Beginner): /learn starts it, /move plays in it.",
            "",
        ),
        (Lesson::MiniGame, Lang::De) => (
            "Eine ganze Partie",
            "Jetzt spielst du eine ganze Partie Minishogi (5×5) gegen komadai (Anfänger): /lernen startet sie, /zug spielt darin.",
            "",
        ),
    }
}
