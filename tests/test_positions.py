from ascendc_lsp.syntax.positions import LineIndex, Position


def test_ascii_round_trip() -> None:
    data = b"ab\ncd\r\nef"
    index = LineIndex(data)
    assert index.line_count == 3
    assert index.position(4) == Position(1, 1)
    assert index.offset(Position(2, 1)) == data.index(b"f")
    # A column past the end of a line clamps to the end of that line (before \r\n).
    assert index.offset(Position(1, 99)) == data.index(b"\r")


def test_chinese_comment_columns_are_utf16() -> None:
    text = "x = 1; // 每个核的长度 len\ny"
    data = text.encode()
    index = LineIndex(data)
    byte_of_len = data.index(b"len")
    pos = index.position(byte_of_len)
    assert pos == Position(0, text.index("len"))  # UTF-16 column equals the str index for BMP text
    assert index.offset(pos) == byte_of_len


def test_astral_characters_take_two_units() -> None:
    text = "a😀b"
    data = text.encode()
    index = LineIndex(data)
    assert index.position(data.index(b"b")) == Position(0, 3)
    assert index.offset(Position(0, 3)) == data.index(b"b")


def test_offsets_beyond_the_buffer_clamp() -> None:
    index = LineIndex(b"abc")
    assert index.offset(Position(10, 0)) == 3
    assert index.position(99) == Position(0, 3)
    assert index.offset(Position(-1, 0)) == 0


def test_utf16_helpers_never_raise_on_a_lone_surrogate_and_stay_linear() -> None:
    from ascendc_lsp.syntax.positions import position_of, utf16_column, utf16_len

    assert utf16_len("a\U0001f600b") == 4 and utf16_len("caf\udce9") == 4  # "\udce9".encode("utf-16-le") raises
    assert utf16_column("中a = 1;", 4) == 2 and utf16_column("x\udce9y", 99) == 3
    text = "é" + "x" * 262_144 + "\nnext"
    assert position_of(text, len(text)) == Position(1, 4)
    assert position_of(text, 10**9) == Position(1, 4) and position_of(text, -5) == Position(0, 0)


def test_a_lone_surrogate_in_the_buffer_never_raises() -> None:
    data = "x = \udce9;\n".encode("utf-8", "surrogatepass")
    index = LineIndex(data)
    assert index.offset(Position(0, 6)) == 8 and index.position(8) == Position(0, 6)
    assert index.byte_column_to_utf16(0, 7) == 5
