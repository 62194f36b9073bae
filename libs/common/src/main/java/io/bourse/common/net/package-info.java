/** TCP plumbing shared by the services that serve SoupBinTCP sessions through nassau. */
package io.bourse.common.net;
