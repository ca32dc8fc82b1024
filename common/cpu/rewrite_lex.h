// The lexer of cucc-rewrite (rewrite.cpp): a C++ source cut into tokens that keep their exact
// text, every byte in exactly one token, so that the rewriter copies what it does not change.
// Kinds: whitespace (with backslash-newlines), comments, directives (a line verbatim, with the
// comments that continue it; of a #define only `#define`: the rest of its lines is lexed as
// code, its tokens marked pp, so that a launch in a macro is rewritten too), names (keywords
// too), pp-numbers (1'000, 0x1.8p+3, 1e-5f), string and character literals (prefixes u8,
// u, U, L; raw strings R"delim(...)delim" with any prefix), punctuation. `<<<` is one token
// (but not in `operator<<<T>`); `>` is always a token alone, so that `A<B<C>>>` closes
// templates and the rewriter finds the `>>>` of a launch by matching from its `<<<`.
#pragma once
#include <algorithm>
#include <cctype>
#include <cstring>
#include <string>
#include <vector>

namespace cucc_rewrite {

const size_t none = std::string::npos;

enum class Kind { Space, Comment, Directive, Ident, Number, Literal, Punct };

struct Token {
    Kind kind;
    size_t begin, end; // [begin, end) in the source
    bool pp;           // in a #define (its head and body), which ends at its line's end
};

inline bool in(const char *set, char c) // c is one of set's characters (never the terminating 0)
{
    return c && strchr(set, c);
}
inline bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || c == '$' || (unsigned char)c >= 0x80;
}

struct Lexer {
    const std::string &s;
    std::vector<Token> toks;
    size_t i = 0;
    bool line_start = true; // only whitespace (or comments) since the last newline
    bool in_define = false;
    size_t last = none; // the last token that is not whitespace or a comment
    explicit Lexer(const std::string &s) : s(s) {}

    char at(size_t k) const { return k < s.size() ? s[k] : '\0'; }
    size_t splice(size_t k) const // the length of a backslash-newline at k, else 0
    {
        if (at(k) != '\\')
            return 0;
        return at(k + 1) == '\n' ? 2 : at(k + 1) == '\r' && at(k + 2) == '\n' ? 3 : 0;
    }
    void push(Kind kind, size_t end)
    {
        toks.push_back({kind, i, end, in_define});
        if (kind != Kind::Space && kind != Kind::Comment)
            last = toks.size() - 1, line_start = false;
        i = end;
    }
    // A "..." or '...' literal whose quote is at q; it stops at an unescaped newline.
    size_t quoted(size_t q) const
    {
        size_t k = q + 1;
        while (k < s.size() && s[k] != s[q] && s[k] != '\n')
            k += s[k] == '\\' ? 2 : 1;
        return k < s.size() && s[k] == s[q] ? k + 1 : std::min(k, s.size());
    }
    // R"delim( ... )delim" whose quote is at q (raw: no escapes, no splices); none if malformed.
    size_t raw(size_t q) const
    {
        size_t open = q + 1;
        while (open < s.size() && open - q <= 17 && !in(" ()\\\t\v\f\r\n\"", s[open]))
            open++;
        if (at(open) != '(')
            return none;
        std::string close = ")" + s.substr(q + 1, open - q - 1) + "\"";
        size_t e = s.find(close, open + 1);
        return e == none ? s.size() : e + close.size();
    }
    // A directive other than #define, verbatim to its line's end (comments may continue it).
    size_t directive() const
    {
        size_t k = i + 1;
        while (k < s.size() && s[k] != '\n') {
            if (size_t n = splice(k))
                k += n;
            else if (s.compare(k, 2, "/*") == 0)
                k = std::min(s.find("*/", k + 2), s.size() - 2) + 2;
            else if (s.compare(k, 2, "//") == 0)
                return line_comment(k);
            else if (s[k] == '"' || s[k] == '\'')
                k = quoted(k);
            else
                k++;
        }
        return std::min(k, s.size());
    }
    size_t line_comment(size_t k) const
    {
        while (k < s.size() && s[k] != '\n')
            k += splice(k) ? splice(k) : 1;
        return k;
    }
    bool after_operator() const
    {
        return last != none &&
               s.compare(toks[last].begin, toks[last].end - toks[last].begin, "operator") == 0;
    }
    void next()
    {
        static const char *const puncts[] = {
            "<<<", "...", "->*", "<=>", "<<=", "::", "->", "++", "--", "<<", "<=", ">=", "&&",
            "||",  "==",  "!=",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", ".*", "##"};
        const char c = s[i];
        if (isspace((unsigned char)c) || splice(i)) {
            size_t k = i;
            for (;;) {
                if (size_t n = splice(k))
                    k += n;
                else if (k < s.size() && isspace((unsigned char)s[k]) &&
                         !(in_define && s[k] == '\n'))
                    line_start |= s[k++] == '\n';
                else
                    break;
            }
            if (k == i) // the newline that ends a #define
                in_define = false, line_start = true, k++;
            return push(Kind::Space, k);
        }
        if (c == '/' && at(i + 1) == '/')
            return push(Kind::Comment, line_comment(i));
        if (c == '/' && at(i + 1) == '*')
            return push(Kind::Comment, std::min(s.find("*/", i + 2), s.size() - 2) + 2);
        if (c == '#' && line_start && !in_define) {
            size_t k = i + 1;
            while (at(k) == ' ' || at(k) == '\t')
                k++;
            if (s.compare(k, 6, "define") == 0 && !ident_char(at(k + 6))) {
                in_define = true; // its body is lexed as code, up to the line's end
                return push(Kind::Directive, k + 6);
            }
            return push(Kind::Directive, directive());
        }
        if (isdigit((unsigned char)c) || (c == '.' && isdigit((unsigned char)at(i + 1)))) {
            size_t k = i + 1; // a pp-number: 1'000, 0x1.8p+3, 1e-5f, 42_km
            for (;;) {
                if (in("eEpP", at(k)) && (at(k + 1) == '+' || at(k + 1) == '-'))
                    k += 2;
                else if (ident_char(at(k)) || at(k) == '.')
                    k++;
                else if (at(k) == '\'' && ident_char(at(k + 1)))
                    k += 2;
                else
                    break;
            }
            return push(Kind::Number, k);
        }
        if (ident_char(c)) {
            size_t k = i;
            while (k < s.size() && ident_char(s[k]))
                k++;
            const std::string w = s.substr(i, k - i);
            if (at(k) == '"' && (w == "R" || w == "u8R" || w == "uR" || w == "UR" || w == "LR"))
                if (size_t e = raw(k); e != none)
                    return push(Kind::Literal, e);
            if ((at(k) == '"' || at(k) == '\'') && (w == "u8" || w == "u" || w == "U" || w == "L"))
                return push(Kind::Literal, quoted(k));
            return push(Kind::Ident, k);
        }
        if (c == '"' || c == '\'')
            return push(Kind::Literal, quoted(i));
        for (const char *p : puncts) // `operator<<<T>` is operator<< with template arguments
            if (s.compare(i, strlen(p), p) == 0 && !(strcmp(p, "<<<") == 0 && after_operator()))
                return push(Kind::Punct, i + strlen(p));
        push(Kind::Punct, i + 1); // one character: `>` always alone (`>>` may close two lists)
    }
    std::vector<Token> run()
    {
        while (i < s.size())
            next();
        return std::move(toks);
    }
};

} // namespace cucc_rewrite
