describe("with a failing setup", function()
  before_each(function()
    error("database unavailable")
  end)

  it("needs the database", function()
    assert.is_true(true)
  end)
end)
