package io.bourse.gateway;

import java.io.IOException;

/**
 * A file that should give a session index does not: a journal whose header is not a session journal's, or a
 * session-index floor that is not a number; or the index is outside 0..{@value SessionIndexes#MAX_SESSION_INDEX}.
 */
final class InvalidSessionIndexException extends IOException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message names the file and what is wrong with it.
     */
    InvalidSessionIndexException(final String message)
    {
        super(message);
    }
}
