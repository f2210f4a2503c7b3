package io.rdmarepl.format.planted;

import static java.sql.Types.BIGINT;

import java.net.HttpURLConnection;

/**
 * Planted for SourceRulesFailTest: log-format taking a database's and a transport's constants, which javac copies in,
 * so its class file names neither. Never in production.
 */
public class FormatWithSqlTypeCodes {
    static final int INTEGER = java.sql.Types.INTEGER;
    static final int LONG = BIGINT;
    static final int OK = HttpURLConnection.HTTP_OK;
}
